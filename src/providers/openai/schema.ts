/** OpenAI function `parameters`: plain (non-strict) and `strict: true` conversions. */
import type { JsonSchema } from "../../catalog/index.js";
import {
  childPointer,
  isSchemaObject,
  isUnsafeKey,
  normalizeRoot,
  resolveLocalRef,
} from "../schema/json-schema.js";
import type { ConversionOptions, SchemaConversion } from "../schema/schema-conversion.js";
import { convertStrict, type StrictConversion, type StrictRules } from "../schema/strict-schema.js";
import { WarningSink } from "../warnings.js";
import { checkOpenAIStrictLimits } from "./strict-limits.js";

/**
 * Returns `parameters` for a non-strict OpenAI function (Chat Completions or Responses): an object
 * root without `$schema` and without root `anyOf`/`oneOf`/`allOf`/`enum`/`not`, which the API
 * rejects with `invalid_function_parameters`. Nested keywords are kept.
 */
export function toOpenAIParameters(
  schema: JsonSchema,
  options: ConversionOptions = {},
): SchemaConversion {
  const sink = new WarningSink(options.tool ?? "(unnamed)");
  const root = normalizeRoot(schema, sink);
  for (const key of ["enum", "not"]) {
    if (key in root) {
      sink.add(
        "keyword_dropped",
        childPointer("", key),
        `root "${key}" is rejected by OpenAI`,
        key,
      );
      delete root[key];
    }
  }
  return { schema: root, warnings: sink.warnings };
}

// "Supported schemas" of OpenAI structured outputs
const OPENAI_STRICT: StrictRules = {
  keep: new Set([
    "description",
    "title",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
  ]),
  formats: new Set([
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
  ]),
  allRequired: true,
  allowRecursion: true,
  allowAllOf: false,
  allowConst: false,
  simplePatternsOnly: false,
};

/**
 * Rewrites a schema for `strict: true`: every property required (optional ones accept `null`;
 * `restoreOpenAIStrictArguments` removes those nulls again), `additionalProperties: false` on every
 * object, unsupported keywords dropped with warnings, size limits checked. When strictness would
 * change meaning (maps, free-form objects, `not`, multi-branch `allOf`, untyped values, limits),
 * the result is `strict: false` with the reason, and the tool should be sent non-strict.
 */
export function toOpenAIStrictSchema(
  schema: JsonSchema,
  options: ConversionOptions = {},
): StrictConversion {
  const sink = new WarningSink(options.tool ?? "(unnamed)");
  const root = toOpenAIParameters(schema, options);
  sink.warnings.push(...root.warnings);
  for (const [key, value] of Object.entries(root.schema)) {
    if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") {
      delete root.schema[key];
    }
  }
  const converted = convertStrict(root.schema, OPENAI_STRICT, sink);
  if (!converted.strict) return converted;
  const tooBig = checkOpenAIStrictLimits(converted.schema);
  return tooBig ? { strict: false, reason: tooBig, warnings: converted.warnings } : converted;
}

/**
 * Removes the `null` values strict mode made the model send for properties the original schema
 * left optional (and that do not accept null themselves), so the tool sees the call it expects.
 * `__proto__`, `constructor` and `prototype` keys are dropped, so the model cannot set the
 * prototype of the arguments a hook or handler sees.
 */
export function restoreOpenAIStrictArguments(args: unknown, original: JsonSchema): unknown {
  return restore(args, original, original, 0);
}

function resolve(schema: unknown, root: JsonSchema): JsonSchema | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref === "string") {
    const target = resolveLocalRef(root, schema.$ref);
    if (!isSchemaObject(target)) return undefined;
    const merged: JsonSchema = { ...target, ...schema };
    delete merged.$ref;
    return merged;
  }
  return schema;
}

function branches(schema: JsonSchema, root: JsonSchema): JsonSchema[] {
  const result = [schema];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (const branch of list) {
        const resolved = resolve(branch, root);
        if (resolved) result.push(...branches(resolved, root));
      }
    }
  }
  return result;
}

function restore(value: unknown, schema: unknown, root: JsonSchema, depth: number): unknown {
  const resolved = resolve(schema, root);
  if (!resolved || depth > 64) return value;
  const shapes = branches(resolved, root);
  if (Array.isArray(value)) {
    const items = shapes
      .map((shape) => shape.items)
      .find((items) => items !== undefined && !Array.isArray(items));
    return items === undefined ? value : value.map((item) => restore(item, items, root, depth + 1));
  }
  if (!isSchemaObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    // assigned into `result`, `__proto__` would set its prototype instead of a property
    if (isUnsafeKey(key)) continue;
    const owners = shapes.filter(
      (shape) => isSchemaObject(shape.properties) && Object.hasOwn(shape.properties, key),
    );
    const property = owners.map((owner) => (owner.properties as JsonSchema)[key])[0];
    if (entry === null && owners.length > 0) {
      const requiredSomewhere = owners.some(
        (owner) => Array.isArray(owner.required) && owner.required.includes(key),
      );
      const propertySchema = resolve(property, root);
      const nullAllowed = propertySchema ? acceptsNullDeep(propertySchema, root) : true;
      if (!requiredSomewhere && !nullAllowed) continue;
    }
    result[key] = property === undefined ? entry : restore(entry, property, root, depth + 1);
  }
  return result;
}

function acceptsNullDeep(schema: JsonSchema, root: JsonSchema): boolean {
  return branches(schema, root).some((shape) => {
    const type = shape.type;
    if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
    if (Array.isArray(shape.enum) && shape.enum.includes(null)) return true;
    if ("const" in shape && shape.const === null) return true;
    return shape.nullable === true || Object.keys(shape).length === 0;
  });
}
