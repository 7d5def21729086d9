/** Gemini nodes without `$ref` or unions: the Schema proto's keywords kept, the rest dropped. */
import type { JsonSchema, JsonValue } from "../../catalog/index.js";
import { childPointer, isSchemaObject } from "../schema/json-schema.js";
import { convertEnum } from "./convert-enum.js";
import { convertItems, convertObject } from "./convert-object.js";
import type { GeminiWalkState } from "./walk-state.js";

// every field of the Schema proto (`@google/genai` Schema); anything else is a 400
const KEEP_ANY = ["title", "description", "default", "example"];
const KEEP_BY_TYPE: Record<string, string[]> = {
  string: ["format", "pattern", "minLength", "maxLength"],
  number: ["format", "minimum", "maximum"],
  integer: ["format", "minimum", "maximum"],
  array: ["minItems", "maxItems"],
  object: ["minProperties", "maxProperties"],
};
const HANDLED = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "examples",
  "propertyOrdering",
  "additionalProperties",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);
const SILENT = new Set(["$schema", "$id", "$comment", "$anchor", "$defs", "definitions"]);

/**
 * Converts a node of one type (plus `nullable`): enums and `const` become string enums, keywords
 * outside the Schema proto for that type are dropped with a warning, `examples` gives `example`,
 * exclusive bounds become inclusive ones, and objects and arrays recurse into their children.
 */
export function convertPlain(
  node: JsonSchema,
  types: string[],
  nullable: boolean,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): JsonSchema {
  const out: JsonSchema = {};
  let type = types[0];
  if (!type && isSchemaObject(node.properties)) type = "object";
  else if (!type && node.items !== undefined) type = "array";
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  let isNullable = nullable;
  if (values) {
    if (values.includes(null)) isNullable = true;
    type = convertEnum(
      values.filter((value) => value !== null) as JsonValue[],
      type,
      out,
      pointer,
      argPath,
      state,
    );
  }
  if (type) out.type = type;
  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key) || SILENT.has(key)) continue;
    const ownKeyword = type !== undefined && (KEEP_BY_TYPE[type] ?? []).includes(key);
    if (KEEP_ANY.includes(key) || (ownKeyword && !(key in out))) out[key] = value;
    else
      state.sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" is not accepted by Gemini here`,
        key,
      );
  }
  if (Array.isArray(node.examples) && node.examples.length > 0 && !("example" in out))
    out.example = node.examples[0];
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"] as const) {
    const bound = node[key];
    const target = key === "exclusiveMinimum" ? "minimum" : "maximum";
    if (
      typeof bound === "number" &&
      (type === "number" || type === "integer") &&
      !(target in out)
    ) {
      out[target] = bound;
      state.sink.add(
        "keyword_weakened",
        childPointer(pointer, key),
        `${key} ${bound} sent as inclusive ${target}`,
        key,
      );
    } else if (key in node) {
      state.sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" is not accepted by Gemini here`,
        key,
      );
    }
  }
  if (isNullable) out.nullable = true;
  if (type === "object") convertObject(node, out, pointer, argPath, state);
  else if ("properties" in node || "required" in node) {
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "properties"),
      `object keywords on type "${type}" removed`,
      "properties",
    );
  }
  if (type === "array") convertItems(node, out, pointer, argPath, state);
  else if ("items" in node)
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "items"),
      `"items" on type "${type}" removed`,
      "items",
    );
  return out;
}
