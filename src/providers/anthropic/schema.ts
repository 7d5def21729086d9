/** Anthropic input schemas: what the Messages API accepts, and which tools may be `strict`. */
import type { JsonSchema } from "../../catalog/index.js";
import { isSchemaObject, normalizeRoot, typeList } from "../schema/json-schema.js";
import type { ConversionOptions, SchemaConversion } from "../schema/schema-conversion.js";
import { convertStrict, type StrictConversion, type StrictRules } from "../schema/strict-schema.js";
import { WarningSink } from "../warnings.js";

/**
 * Returns an `input_schema` the Messages API accepts: an object root without `$schema` and
 * without a root anyOf/oneOf/allOf (the API rejects those with a 400 for the whole request).
 * Everything below the root is plain JSON Schema and is kept as it is.
 */
export function toAnthropicInputSchema(
  schema: JsonSchema,
  options: ConversionOptions = {},
): SchemaConversion {
  const sink = new WarningSink(options.tool ?? "(unnamed)");
  return { schema: normalizeRoot(schema, sink), warnings: sink.warnings };
}

// Structured-outputs subset shared by strict tools (platform.claude.com structured-outputs)
const ANTHROPIC_STRICT: StrictRules = {
  keep: new Set(["description", "title", "default"]),
  formats: new Set([
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
  ]),
  allRequired: false,
  allowRecursion: false,
  allowAllOf: true,
  allowConst: true,
  maxMinItems: 1,
  simplePatternsOnly: true,
};

/**
 * Rewrites a schema for `strict: true` on Anthropic: `additionalProperties: false` on every object,
 * numeric and length bounds dropped (with warnings). Recursive schemas, maps, free-form objects
 * and untyped values cannot be strict: the result then says `strict: false` and why.
 */
export function toAnthropicStrictSchema(
  schema: JsonSchema,
  options: ConversionOptions = {},
): StrictConversion {
  const sink = new WarningSink(options.tool ?? "(unnamed)");
  return convertStrict(normalizeRoot(schema, sink), ANTHROPIC_STRICT, sink);
}

/** Per-request limits for strict tools (structured-outputs docs). */
export interface AnthropicStrictLimits {
  /** Strict tools per request; default 20. */
  maxTools?: number;
  /** Optional parameters summed over all strict schemas; default 24. */
  maxOptional?: number;
  /** Parameters with union types (anyOf or type arrays) summed over all strict schemas; default 16. */
  maxUnions?: number;
}

/** Which tools get `strict: true`, which stay non-strict and why. */
export interface AnthropicStrictSelection {
  strict: { name: string; schema: JsonSchema }[];
  rejected: { name: string; reason: string }[];
}

/** Counts the optional and union-typed parameters of a strict schema (every nesting level). */
export function countStrictParameters(schema: JsonSchema): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isSchemaObject(node)) return;
    if (isSchemaObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const [name, property] of Object.entries(node.properties)) {
        if (!required.has(name)) optional++;
        if (
          isSchemaObject(property) &&
          (Array.isArray(property.anyOf) || typeList(property).length > 1)
        )
          unions++;
      }
    }
    for (const value of Object.values(node)) if (typeof value === "object") visit(value);
  };
  visit(schema);
  return { optional, unions };
}

/**
 * Picks, in the given (priority) order, the tools that can be strict without breaking the
 * per-request limits: 20 strict tools, 24 optional and 16 union parameters in total. Whether
 * deferred tools count towards these limits is unconfirmed; this counts every tool passed in.
 */
export function selectAnthropicStrictTools(
  tools: readonly { name: string; inputSchema: JsonSchema }[],
  limits: AnthropicStrictLimits = {},
): AnthropicStrictSelection {
  const maxTools = limits.maxTools ?? 20;
  const maxOptional = limits.maxOptional ?? 24;
  const maxUnions = limits.maxUnions ?? 16;
  const selection: AnthropicStrictSelection = { strict: [], rejected: [] };
  let optional = 0;
  let unions = 0;
  for (const tool of tools) {
    const converted = toAnthropicStrictSchema(tool.inputSchema, { tool: tool.name });
    if (!converted.strict) {
      selection.rejected.push({ name: tool.name, reason: converted.reason });
      continue;
    }
    const counts = countStrictParameters(converted.schema);
    let reason: string | undefined;
    if (selection.strict.length >= maxTools) reason = `already ${maxTools} strict tools`;
    else if (optional + counts.optional > maxOptional)
      reason = `its ${counts.optional} optional parameter(s) would pass the limit of ${maxOptional}`;
    else if (unions + counts.unions > maxUnions)
      reason = `its ${counts.unions} union parameter(s) would pass the limit of ${maxUnions}`;
    if (reason) {
      selection.rejected.push({ name: tool.name, reason });
      continue;
    }
    optional += counts.optional;
    unions += counts.unions;
    selection.strict.push({ name: tool.name, schema: converted.schema });
  }
  return selection;
}
