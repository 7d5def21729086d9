/** OpenAI's documented size limits for strict (structured-outputs) schemas. */
import type { JsonSchema } from "../../catalog/index.js";
import { isSchemaObject, resolveLocalRef } from "../schema/json-schema.js";

/** The limits from OpenAI's "Supported schemas" page (current values). */
export const OPENAI_STRICT_LIMITS = {
  maxProperties: 5000,
  maxNesting: 10,
  maxStringChars: 120_000,
  maxEnumValues: 1000,
  largeEnumSize: 250,
  maxLargeEnumChars: 15_000,
} as const;

/** Returns why a strict schema is over one of OpenAI's size limits, or undefined when it fits. */
export function checkOpenAIStrictLimits(schema: JsonSchema): string | undefined {
  let properties = 0;
  let chars = 0;
  let enumValues = 0;
  let largeEnum: string | undefined;
  const count = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) count(item);
      return;
    }
    if (!isSchemaObject(node)) return;
    for (const key of ["$defs", "definitions"]) {
      if (isSchemaObject(node[key])) chars += Object.keys(node[key]).join("").length;
    }
    if (isSchemaObject(node.properties)) {
      const names = Object.keys(node.properties);
      properties += names.length;
      chars += names.join("").length;
    }
    const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : [];
    enumValues += values.length;
    const text = values.map((value) => String(value)).join("");
    chars += text.length;
    if (
      values.length > OPENAI_STRICT_LIMITS.largeEnumSize &&
      text.length > OPENAI_STRICT_LIMITS.maxLargeEnumChars
    ) {
      largeEnum = `an enum of ${values.length} values totals ${text.length} characters`;
    }
    for (const value of Object.values(node)) if (typeof value === "object") count(value);
  };
  count(schema);
  const limits = OPENAI_STRICT_LIMITS;
  if (properties > limits.maxProperties)
    return `${properties} object properties (limit ${limits.maxProperties})`;
  if (chars > limits.maxStringChars)
    return `${chars} characters of names and enum values (limit ${limits.maxStringChars})`;
  if (enumValues > limits.maxEnumValues)
    return `${enumValues} enum values (limit ${limits.maxEnumValues})`;
  if (largeEnum) return `${largeEnum} (limit ${limits.maxLargeEnumChars})`;
  const depth = nestingDepth(schema, schema, new Set(), 0);
  if (depth > limits.maxNesting) return `nesting depth ${depth} (limit ${limits.maxNesting})`;
  return undefined;
}

/** Deepest chain of nested object schemas, following `$ref` but not around a cycle. */
export function nestingDepth(
  node: unknown,
  root: JsonSchema,
  refs: ReadonlySet<string>,
  depth: number,
): number {
  if (Array.isArray(node))
    return Math.max(depth, ...node.map((item) => nestingDepth(item, root, refs, depth)));
  if (!isSchemaObject(node)) return depth;
  if (typeof node.$ref === "string") {
    if (refs.has(node.$ref)) return depth;
    return nestingDepth(
      resolveLocalRef(root, node.$ref),
      root,
      new Set([...refs, node.$ref]),
      depth,
    );
  }
  const here = isSchemaObject(node.properties) ? depth + 1 : depth;
  let deepest = here;
  for (const [key, value] of Object.entries(node)) {
    if (key === "$defs" || key === "definitions" || typeof value !== "object") continue;
    const children = key === "properties" && isSchemaObject(value) ? Object.values(value) : [value];
    for (const child of children)
      deepest = Math.max(deepest, nestingDepth(child, root, refs, here));
  }
  return deepest;
}
