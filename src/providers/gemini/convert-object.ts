/** Gemini object and array nodes: renamed properties, trimmed `required`, converted items. */
import type { JsonSchema } from "../../catalog/index.js";
import { childPointer, isSchemaObject } from "../schema/json-schema.js";
import { geminiPropertyNames } from "./arguments.js";
import type { GeminiWalkState } from "./walk-state.js";

/**
 * Writes an object node's `properties`, `required` and `propertyOrdering` into `out`. Names
 * Gemini rejects are renamed (recorded in the argument mapping), required names without a
 * property schema are dropped, and free-form keys (`additionalProperties`) are warned away.
 */
export function convertObject(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): void {
  const props = isSchemaObject(node.properties) ? node.properties : {};
  const names = geminiPropertyNames(Object.keys(props));
  const extra = node.additionalProperties;
  if (isSchemaObject(extra) || (Object.keys(props).length === 0 && extra !== false)) {
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "additionalProperties"),
      "free-form object keys cannot be declared for Gemini; it sees an object without properties",
      "additionalProperties",
    );
  }
  if (Object.keys(props).length === 0) return;
  const properties: JsonSchema = {};
  for (const [name, schema] of Object.entries(props)) {
    const newName = names.get(name) ?? name;
    const childPath = childPointer(argPath, newName);
    if (newName !== name) {
      state.mapping.renamed[childPath] = name;
      state.sink.add(
        "property_renamed",
        childPointer(pointer, "properties", name),
        `property "${name}" renamed to "${newName}" (arguments are mapped back)`,
        name,
      );
    }
    properties[newName] = state.convert(
      schema,
      childPointer(pointer, "properties", name),
      childPath,
    );
  }
  out.properties = properties;
  const required = Array.isArray(node.required)
    ? node.required.filter((name): name is string => typeof name === "string")
    : [];
  const kept = required.filter((name) => name in props).map((name) => names.get(name) ?? name);
  if (kept.length < required.length) {
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "required"),
      "required names without a property schema removed",
      "required",
    );
  }
  if (kept.length > 0) out.required = [...new Set(kept)];
  if (Array.isArray(node.propertyOrdering)) {
    out.propertyOrdering = node.propertyOrdering
      .filter((name) => typeof name === "string" && name in props)
      .map((name) => names.get(name as string) ?? name);
  }
}

/**
 * Writes an array node's `items` into `out`; tuple `items` become one anyOf of the item schemas,
 * with a warning that positions are no longer enforced.
 */
export function convertItems(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): void {
  const itemsPath = childPointer(argPath, "*");
  if (Array.isArray(node.items)) {
    state.sink.add(
      "type_narrowed",
      childPointer(pointer, "items"),
      "tuple items sent as anyOf of the item schemas (positions are not enforced)",
      "items",
    );
    out.items = {
      anyOf: node.items.map((item, index) =>
        state.convert(item, childPointer(pointer, "items", index), itemsPath),
      ),
    };
  } else if (node.items !== undefined) {
    out.items = state.convert(node.items, childPointer(pointer, "items"), itemsPath);
  }
}
