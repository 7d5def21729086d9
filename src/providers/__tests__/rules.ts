/**
 * Provider rule checkers for tests, written from reference/providers.md independently of the
 * converters: each returns the list of rules a tool name and schema break (empty = accepted).
 */
import type { JsonSchema } from "../../catalog/index.js";

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Calls `visit` on every schema node (not on property maps or enum data), with its pointer. */
export function eachSchema(
  schema: unknown,
  visit: (node: Node, pointer: string) => void,
  pointer = "",
): void {
  if (!isNode(schema)) return;
  visit(schema, pointer);
  for (const key of [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
  ]) {
    const map = schema[key];
    if (isNode(map))
      for (const [name, child] of Object.entries(map))
        eachSchema(child, visit, `${pointer}/${key}/${name}`);
  }
  for (const key of [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contains",
  ]) {
    const child = schema[key];
    if (!Array.isArray(child)) eachSchema(child, visit, `${pointer}/${key}`);
    else
      for (const [index, item] of child.entries())
        eachSchema(item, visit, `${pointer}/${key}/${index}`);
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [index, item] of list.entries())
      eachSchema(item, visit, `${pointer}/${key}/${index}`);
  }
}

const types = (node: Node): string[] =>
  typeof node.type === "string"
    ? [node.type]
    : Array.isArray(node.type)
      ? (node.type as string[])
      : [];

function recursive(root: Node): boolean {
  const deref = (ref: string): unknown =>
    ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (isNode(node) ? node[key] : undefined), root);
  const reach = (node: unknown, seen: string[]): boolean => {
    let found = false;
    eachSchema(node, (child) => {
      if (found || typeof child.$ref !== "string") return;
      if (seen.includes(child.$ref)) found = true;
      else if (child.$ref.startsWith("#/")) found = reach(deref(child.$ref), [...seen, child.$ref]);
    });
    return found;
  };
  const { $defs, definitions, ...body } = root;
  return reach(body, []);
}

/** Anthropic custom tool: name `^[a-zA-Z0-9_-]{1,128}$`, object root, no root anyOf/oneOf/allOf. */
export function anthropicViolations(name: string, schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,128}$/.test(name))
    problems.push(`name "${name}" breaks ^[a-zA-Z0-9_-]{1,128}$`);
  if (schema.type !== "object") problems.push("root type is not object");
  for (const key of ["anyOf", "oneOf", "allOf", "$schema"])
    if (key in schema) problems.push(`root has ${key}`);
  return problems;
}

const ANTHROPIC_STRICT_KEYS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "default",
  "description",
  "title",
  "format",
  "pattern",
  "minItems",
]);
const ANTHROPIC_FORMATS = new Set([
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
]);

/** Anthropic strict tool: the structured-outputs subset (no recursion, no bounds, closed objects). */
export function anthropicStrictViolations(name: string, schema: JsonSchema): string[] {
  const problems = anthropicViolations(name, schema);
  if (recursive(schema)) problems.push("recursive schema");
  eachSchema(schema, (node, at) => {
    for (const key of Object.keys(node))
      if (!ANTHROPIC_STRICT_KEYS.has(key)) problems.push(`${at}: keyword ${key}`);
    if (
      (types(node).includes("object") || isNode(node.properties)) &&
      node.additionalProperties !== false
    )
      problems.push(`${at}: additionalProperties is not false`);
    if (typeof node.minItems === "number" && node.minItems > 1)
      problems.push(`${at}: minItems > 1`);
    if (typeof node.format === "string" && !ANTHROPIC_FORMATS.has(node.format))
      problems.push(`${at}: format ${node.format}`);
    if (
      Array.isArray(node.enum) &&
      node.enum.some((value) => typeof value === "object" && value !== null)
    )
      problems.push(`${at}: enum of objects`);
    if (typeof node.$ref === "string" && !node.$ref.startsWith("#"))
      problems.push(`${at}: external $ref`);
    if (Array.isArray(node.allOf) && JSON.stringify(node.allOf).includes('"$ref"'))
      problems.push(`${at}: allOf with $ref`);
  });
  return problems;
}

/** OpenAI function: name `^[a-zA-Z0-9_-]{1,64}$`, object root without anyOf/oneOf/allOf/enum/not. */
export function openAIViolations(name: string, schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name))
    problems.push(`name "${name}" breaks ^[a-zA-Z0-9_-]{1,64}$`);
  if (schema.type !== "object") problems.push("root type is not object");
  for (const key of ["anyOf", "oneOf", "allOf", "enum", "not"])
    if (key in schema) problems.push(`root has ${key}`);
  return problems;
}

const OPENAI_STRICT_KEYS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
const OPENAI_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** OpenAI strict: every property required, closed objects, supported keywords, size limits. */
export function openAIStrictViolations(name: string, schema: JsonSchema): string[] {
  const problems = openAIViolations(name, schema);
  let properties = 0;
  let enumValues = 0;
  let chars = 0;
  eachSchema(schema, (node, at) => {
    for (const key of Object.keys(node))
      if (!OPENAI_STRICT_KEYS.has(key)) problems.push(`${at}: keyword ${key}`);
    if (!("type" in node) && !("anyOf" in node) && !("$ref" in node))
      problems.push(`${at}: no type`);
    if (types(node).includes("object")) {
      if (node.additionalProperties !== false)
        problems.push(`${at}: additionalProperties is not false`);
      const keys = isNode(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      for (const key of keys)
        if (!required.includes(key)) problems.push(`${at}: ${key} not required`);
      properties += keys.length;
      chars += keys.join("").length;
    }
    if (types(node).includes("array") && !isNode(node.items))
      problems.push(`${at}: array without items`);
    if (typeof node.format === "string" && !OPENAI_FORMATS.has(node.format))
      problems.push(`${at}: format ${node.format}`);
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      chars += node.enum.map(String).join("").length;
    }
  });
  if (properties > 5000) problems.push(`${properties} properties`);
  if (enumValues > 1000) problems.push(`${enumValues} enum values`);
  if (chars > 120_000) problems.push(`${chars} characters`);
  return problems;
}

const GEMINI_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "propertyOrdering",
  "anyOf",
  "default",
  "example",
]);
const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

/** Gemini `parameters`: Schema proto fields only, single string types, string enums, legal property names. */
export function geminiViolations(name: string, schema: JsonSchema | undefined): string[] {
  const problems: string[] = [];
  if (!/^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/.test(name))
    problems.push(`name "${name}" breaks the Gemini name rule`);
  if (schema === undefined) return problems;
  if (schema.type !== "object") problems.push("root type is not object");
  eachSchema(schema, (node, at) => {
    for (const key of Object.keys(node))
      if (!GEMINI_FIELDS.has(key)) problems.push(`${at}: field ${key}`);
    if (
      "type" in node &&
      (typeof node.type !== "string" || !GEMINI_TYPES.has(node.type.toLowerCase()))
    )
      problems.push(`${at}: type ${JSON.stringify(node.type)}`);
    if (Array.isArray(node.enum) && !node.enum.every((value) => typeof value === "string"))
      problems.push(`${at}: non-string enum`);
    if ("anyOf" in node && Object.keys(node).length > 1)
      problems.push(`${at}: keywords beside anyOf`);
    if ("items" in node && node.type !== "array") problems.push(`${at}: items on a non-array`);
    if (isNode(node.properties)) {
      for (const key of Object.keys(node.properties))
        if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(key))
          problems.push(`${at}: property name ${key}`);
      const required = Array.isArray(node.required) ? node.required : [];
      for (const key of required)
        if (!(key in node.properties)) problems.push(`${at}: required ${key} is not a property`);
    }
  });
  return problems;
}

/** Gemini `parametersJsonSchema`: an object root, no `$schema`, no vendor `x-` keys. */
export function geminiJsonSchemaViolations(name: string, schema: JsonSchema | undefined): string[] {
  const problems = geminiViolations(name, undefined);
  if (schema === undefined) return problems;
  if (schema.type !== "object") problems.push("root type is not object");
  eachSchema(schema, (node, at) => {
    for (const key of Object.keys(node))
      if (key === "$schema" || key.startsWith("x-")) problems.push(`${at}: ${key}`);
  });
  return problems;
}

/** Keywords that may vanish without a warning because they constrain nothing or were converted losslessly. */
const LOSSLESS: Record<string, readonly string[]> = {
  common: ["$schema", "$id", "$comment", "$anchor"],
  gemini: ["$ref", "$defs", "definitions", "const", "examples", "allOf", "anyOf", "nullable"],
  openaiStrict: ["const"],
  anthropicStrict: [],
};

/**
 * Keywords (and `property:<name>` entries) of the schema with their pointers. Definitions are
 * visited only when reached through a `$ref` that `skipRef` does not exclude, so unused or cut
 * definitions do not count.
 */
function keywordsOf(
  schema: unknown,
  skipRef: (pointer: string) => boolean = () => false,
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (key: string, pointer: string) =>
    found.set(key, [...(found.get(key) ?? []), pointer]);
  const root = isNode(schema) ? schema : {};
  const visited = new Set<string>();
  const visit = (node: unknown, base: string) =>
    eachSchema(
      node,
      (child, pointer) => {
        const hasProperties = isNode(child.properties) && Object.keys(child.properties).length > 0;
        for (const [key, value] of Object.entries(child)) {
          if (key === "$defs" || key === "definitions") continue;
          if (key === "required" && Array.isArray(value) && value.length === 0) continue;
          if (key === "properties" && !hasProperties) continue;
          // a boolean additionalProperties does not change which declared arguments the model sees
          if (
            key === "additionalProperties" &&
            (value === false || (value === true && hasProperties))
          )
            continue;
          add(key, `${pointer}/${key}`);
        }
        if (isNode(child.properties)) {
          for (const name of Object.keys(child.properties))
            add(`property:${name}`, `${pointer}/properties/${name}`);
        }
        const ref = child.$ref;
        if (
          typeof ref === "string" &&
          ref.startsWith("#/") &&
          !visited.has(ref) &&
          !skipRef(`${pointer}/$ref`)
        ) {
          visited.add(ref);
          const target = ref
            .slice(2)
            .split("/")
            .reduce<unknown>((node, key) => (isNode(node) ? node[key] : undefined), root);
          visit(target, ref.slice(1));
        }
      },
      base,
    );
  const { $defs, definitions, ...body } = root;
  visit(body, "");
  return found;
}

/**
 * Keywords and property names that are in the original schema, absent from the converted one,
 * and not explained by a warning on them or on a schema that contains them (or by a documented
 * lossless rewrite).
 */
export function silentLosses(
  original: JsonSchema,
  converted: JsonSchema | undefined,
  warnings: readonly { keyword?: string; code: string; path: string }[],
  kind: keyof typeof LOSSLESS | "plain",
): string[] {
  const warned = new Set(warnings.map((warning) => warning.keyword));
  const covering = warnings.filter((warning) => warning.path !== "").map((warning) => warning.path);
  const exempt = new Set([...(LOSSLESS.common ?? []), ...(LOSSLESS[kind] ?? [])]);
  const isCovered = (pointer: string) =>
    covering.some((path) => pointer === path || pointer.startsWith(`${path}/`));
  const after = keywordsOf(converted ?? {});
  const lost: string[] = [];
  for (const [key, pointers] of keywordsOf(original, isCovered)) {
    const bare = key.replace(/^property:/, "");
    if (after.has(key) || warned.has(bare) || exempt.has(key)) continue;
    const excused = pointers.every(isCovered);
    if (!excused) lost.push(`${key} at ${pointers[0]}`);
  }
  return lost;
}
