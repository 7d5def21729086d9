/** Strict-mode objects and arrays: closed objects, required lists, and bounded array items. */
import type { JsonSchema } from "../../catalog/index.js";
import type { WarningSink } from "../warnings.js";
import { childPointer, isSchemaObject, typeList } from "./json-schema.js";
import { NotStrict, type StrictRules, type StrictWalk } from "./strict-rules.js";

/**
 * Writes a strict object's `properties`, `required` and `additionalProperties: false` into `out`.
 * Maps and free-form objects make the schema non-strict (a root without properties is a tool
 * without arguments); with `allRequired`, optional properties become required but nullable.
 */
export function strictObjectKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  walk: StrictWalk,
): void {
  const where = pointer || "the root";
  const props = isSchemaObject(node.properties) ? node.properties : undefined;
  const extra = node.additionalProperties;
  if (isSchemaObject(extra)) throw new NotStrict(`${where} is a map (additionalProperties schema)`);
  if (!props || Object.keys(props).length === 0) {
    // a root without declared properties is a tool without arguments, unless it says it is open
    const argumentless = pointer === "" && extra === undefined;
    if (extra !== false && !argumentless) {
      throw new NotStrict(`${where} is a free-form object without properties`);
    }
    out.properties = {};
    out.required = [];
    out.additionalProperties = false;
    return;
  }
  if (extra === true) {
    sink.add(
      "additional_properties_closed",
      childPointer(pointer, "additionalProperties"),
      "open object closed: extra keys cannot be sent in strict mode",
      "additionalProperties",
    );
  }
  const declared = Array.isArray(node.required)
    ? node.required.filter((n): n is string => typeof n === "string")
    : [];
  const required = declared.filter((name) => name in props);
  for (const name of declared) {
    if (!(name in props))
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "required"),
        `required "${name}" has no property schema`,
        "required",
      );
  }
  const properties: JsonSchema = {};
  for (const [name, schema] of Object.entries(props)) {
    const converted = walk(schema, childPointer(pointer, "properties", name));
    properties[name] =
      rules.allRequired && !required.includes(name) ? makeNullable(converted) : converted;
  }
  out.properties = properties;
  out.required = rules.allRequired ? Object.keys(props) : required;
  out.additionalProperties = false;
}

/** Lets a property also be null, which is how strict mode expresses "optional". */
export function makeNullable(schema: JsonSchema): JsonSchema {
  const types = typeList(schema);
  if (types.includes("null")) return schema;
  if (typeof schema.type === "string" && !("$ref" in schema) && !("anyOf" in schema)) {
    const result: JsonSchema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null))
      result.enum = [...schema.enum, null];
    return result;
  }
  if (
    Array.isArray(schema.anyOf) &&
    !schema.anyOf.some((b) => isSchemaObject(b) && typeList(b).includes("null"))
  ) {
    return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  if (Array.isArray(schema.anyOf)) return schema;
  const { description, ...rest } = schema;
  const wrapped: JsonSchema = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

/**
 * Writes a strict array's `items` and `minItems` into `out`; an array without `items` or with
 * tuple `items` makes the schema non-strict, and a `minItems` above the rules' limit is dropped.
 */
export function strictArrayKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  walk: StrictWalk,
): void {
  const where = pointer || "the root";
  if (node.items === undefined) throw new NotStrict(`${where} is an array without "items"`);
  if (Array.isArray(node.items)) throw new NotStrict(`${where} uses tuple "items"`);
  out.items = walk(node.items, childPointer(pointer, "items"));
  if (typeof node.minItems === "number") {
    if (rules.maxMinItems === undefined || node.minItems <= rules.maxMinItems)
      out.minItems = node.minItems;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "minItems"),
        `minItems ${node.minItems} is above the strict limit ${rules.maxMinItems}`,
        "minItems",
      );
  }
}
