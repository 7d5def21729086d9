/** Schema merging for the Gemini conversion (allOf, and siblings pushed into anyOf branches). */
import type { JsonSchema } from "../../catalog/index.js";
import { childPointer, isSchemaObject } from "../schema/json-schema.js";
import type { WarningSink } from "../warnings.js";

const ANNOTATIONS = new Set(["description", "title", "default", "examples", "example"]);

/**
 * Merges `extra` into `base` as "both apply": properties are combined (a property in both becomes
 * an allOf of the two), `required` lists are joined, annotations from `extra` win, and any other
 * conflicting keyword keeps `extra`'s value with a warning.
 */
export function mergeSchemas(
  base: JsonSchema,
  extra: JsonSchema,
  pointer: string,
  sink: WarningSink,
): JsonSchema {
  const result: JsonSchema = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key];
    if (
      current === undefined ||
      JSON.stringify(current) === JSON.stringify(value) ||
      ANNOTATIONS.has(key)
    ) {
      result[key] = value;
    } else if (key === "properties" && isSchemaObject(current) && isSchemaObject(value)) {
      const properties: JsonSchema = { ...current };
      for (const [name, schema] of Object.entries(value)) {
        const existing = properties[name];
        properties[name] =
          existing === undefined || JSON.stringify(existing) === JSON.stringify(schema)
            ? schema
            : { allOf: [existing, schema] };
      }
      result.properties = properties;
    } else if (key === "required" && Array.isArray(current) && Array.isArray(value)) {
      result.required = [...new Set([...current, ...value])];
    } else {
      sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `conflicting "${key}" values ${JSON.stringify(current)} and ${JSON.stringify(value)}; kept the latter`,
        key,
      );
      result[key] = value;
    }
  }
  return result;
}

const FAMILY: Record<string, string[]> = {
  string: ["minLength", "maxLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"],
  array: ["items", "minItems", "maxItems", "uniqueItems", "prefixItems", "contains"],
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
  ],
};

function family(type: string): string {
  return type === "integer" ? "number" : type;
}

/** Splits a multi-type schema into one schema per type, each keeping only its own keywords. */
export function splitByType(node: JsonSchema, types: readonly string[]): JsonSchema[] {
  return types.map((type) => {
    const own = new Set(FAMILY[family(type)] ?? []);
    const foreign = new Set(
      Object.entries(FAMILY)
        .filter(([name]) => name !== family(type))
        .flatMap(([, keys]) => keys)
        .filter((key) => !own.has(key)),
    );
    const branch: JsonSchema = { type };
    for (const [key, value] of Object.entries(node)) {
      if (key !== "type" && key !== "nullable" && !foreign.has(key)) branch[key] = value;
    }
    return branch;
  });
}
