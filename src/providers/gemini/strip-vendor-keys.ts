/** The light clean-up behind Gemini's `parametersJsonSchema` field, which takes JSON Schema as is. */
import type { JsonSchema } from "../../catalog/index.js";
import { childPointer, isSchemaObject } from "../schema/json-schema.js";
import type { WarningSink } from "../warnings.js";

/**
 * Copies a schema without `$schema` and without `x-` vendor extensions (each removal is warned
 * about); enum, const and default values are data and are copied untouched.
 */
export function stripVendorKeys(node: unknown, pointer: string, sink: WarningSink): unknown {
  if (Array.isArray(node))
    return node.map((item, index) => stripVendorKeys(item, childPointer(pointer, index), sink));
  if (!isSchemaObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key.startsWith("x-")) {
      sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `vendor extension "${key}" removed`,
        key,
      );
      continue;
    }
    // property maps and enum values are data, not keywords
    out[key] =
      key === "enum" || key === "const" || key === "default"
        ? value
        : stripVendorKeys(value, childPointer(pointer, key), sink);
  }
  return out;
}
