/**
 * The walk shared by Anthropic's and OpenAI's strict modes: it rewrites a schema into a provider's
 * strict subset, dropping constraint keywords with a warning, and gives up (`strict: false`) where
 * a rewrite would change which arguments are valid in a way the model would notice.
 */
import type { JsonSchema } from "../catalog/index.js";
import { childPointer, isSchemaObject, resolveLocalRef, typeList } from "./json-schema.js";
import type { ConversionWarning, WarningSink } from "./warnings.js";

/** The outcome of a strict conversion: a strict schema, or the reason to send the tool non-strict. */
export type StrictConversion =
  | { strict: true; schema: JsonSchema; warnings: ConversionWarning[] }
  | { strict: false; reason: string; warnings: ConversionWarning[] };

/** What a provider's strict mode accepts. */
export interface StrictRules {
  /** Keywords kept unchanged (besides the structural ones the walk handles itself). */
  keep: ReadonlySet<string>;
  formats: ReadonlySet<string>;
  /** OpenAI: every property required, optional ones made nullable. */
  allRequired: boolean;
  allowRecursion: boolean;
  /** Anthropic keeps allOf (without `$ref` inside); OpenAI has none. */
  allowAllOf: boolean;
  /** Anthropic accepts `const`; OpenAI gets a one-value enum instead. */
  allowConst: boolean;
  /** Largest accepted `minItems` (Anthropic: 1). */
  maxMinItems?: number;
  /** Reject patterns with backreferences, lookaround, `\b` or large repetition counts. */
  simplePatternsOnly: boolean;
}

/** Thrown inside the walk when the schema cannot be strict; caught by `convertStrict`. */
class NotStrict extends Error {}

// keywords that change which values are valid in ways a strict grammar cannot express
const STRUCTURAL = [
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contains",
];
const SILENT = new Set(["$schema", "$id", "$comment", "$anchor"]);
const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "$defs",
  "definitions",
  "enum",
  "const",
  "minItems",
  "format",
  "pattern",
]);

/** Whether a `#/...` reference can reach itself again (a recursive schema). */
export function hasRecursiveRef(root: JsonSchema): boolean {
  const visit = (node: unknown, stack: string[]): boolean => {
    if (Array.isArray(node)) return node.some((item) => visit(item, stack));
    if (!isSchemaObject(node)) return false;
    if (typeof node.$ref === "string") {
      if (stack.includes(node.$ref)) return true;
      const target = resolveLocalRef(root, node.$ref);
      if (visit(target, [...stack, node.$ref])) return true;
    }
    return Object.entries(node).some(([key, value]) => key !== "$defs" && visit(value, stack));
  };
  return visit(root, []);
}

function isSimplePattern(pattern: string): boolean {
  if (/\\[1-9]|\(\?[=!<]|\\b|\\B/.test(pattern)) return false;
  const counts = pattern.match(/\{(\d+)(?:,(\d*))?\}/g) ?? [];
  return counts.every((count) => (count.match(/\d+/g) ?? []).every((n) => Number(n) <= 100));
}

/** Runs the strict walk over a normalised root; never throws. */
export function convertStrict(
  root: JsonSchema,
  rules: StrictRules,
  sink: WarningSink,
): StrictConversion {
  try {
    if (!rules.allowRecursion && hasRecursiveRef(root)) {
      throw new NotStrict("the schema is recursive ($ref cycle)");
    }
    const schema = walk(root, "", rules, sink, root);
    return { strict: true, schema, warnings: sink.warnings };
  } catch (error) {
    if (error instanceof NotStrict) {
      return { strict: false, reason: error.message, warnings: sink.warnings };
    }
    throw error;
  }
}

function walk(
  node: unknown,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  root: JsonSchema,
): JsonSchema {
  const where = pointer === "" ? "the root" : pointer;
  if (!isSchemaObject(node)) {
    throw new NotStrict(
      `${where} is a boolean schema (any value), which strict mode cannot express`,
    );
  }
  for (const key of STRUCTURAL) {
    if (key in node)
      throw new NotStrict(`${where} uses "${key}", which strict mode does not support`);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key) || SILENT.has(key)) continue;
    if (rules.keep.has(key)) out[key] = value;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" is not supported in strict mode`,
        key,
      );
  }
  if (typeof node.$ref === "string") {
    if (!node.$ref.startsWith("#"))
      throw new NotStrict(`${where} uses an external $ref "${node.$ref}"`);
    out.$ref = node.$ref;
  }
  for (const key of ["$defs", "definitions"]) {
    const defs = node[key];
    if (isSchemaObject(defs)) {
      out[key] = Object.fromEntries(
        Object.entries(defs).map(([name, def]) => [
          name,
          walk(def, childPointer(pointer, key, name), rules, sink, root),
        ]),
      );
    }
  }
  copyValueKeywords(node, out, pointer, rules, sink);
  copyCombinators(node, out, pointer, rules, sink, root);
  const types = typeList(node);
  if ("type" in node) out.type = node.type;
  else if (out.enum !== undefined || out.const !== undefined) {
    const inferred = inferType((out.enum as unknown[] | undefined) ?? [out.const]);
    if (inferred) out.type = inferred;
  } else if (isSchemaObject(node.properties)) out.type = "object";
  if (
    !("type" in out) &&
    !("$ref" in out) &&
    !("anyOf" in out) &&
    !("allOf" in out) &&
    !("enum" in out)
  ) {
    throw new NotStrict(`${where} has no type (any value), which strict mode cannot express`);
  }
  const finalTypes = typeList(out);
  if (finalTypes.includes("object") || (types.length === 0 && isSchemaObject(node.properties))) {
    objectKeywords(node, out, pointer, rules, sink, root);
  }
  if (finalTypes.includes("array")) arrayKeywords(node, out, pointer, rules, sink, root);
  for (const key of ["items", "minItems", "properties", "required", "additionalProperties"]) {
    if (key in node && !(key in out)) {
      sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" does not apply to type ${JSON.stringify(out.type)}`,
        key,
      );
    }
  }
  return out;
}

function inferType(values: unknown[]): string | undefined {
  const kinds = new Set(values.map((value) => (value === null ? "null" : typeof value)));
  if (kinds.size !== 1) return undefined;
  const kind = [...kinds][0];
  return kind === "string" || kind === "boolean" || kind === "number" ? kind : undefined;
}

function copyValueKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
): void {
  const primitive = (value: unknown) => value === null || typeof value !== "object";
  if (Array.isArray(node.enum)) {
    if (!node.enum.every(primitive))
      throw new NotStrict(`${pointer || "the root"} has an enum of objects or arrays`);
    out.enum = node.enum;
  }
  if ("const" in node) {
    if (!primitive(node.const))
      throw new NotStrict(`${pointer || "the root"} has a const object or array`);
    if (rules.allowConst) out.const = node.const;
    else out.enum = [node.const];
  }
  if (typeof node.format === "string") {
    if (rules.formats.has(node.format)) out.format = node.format;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "format"),
        `format "${node.format}" is not supported in strict mode`,
        "format",
      );
  }
  if (typeof node.pattern === "string") {
    if (!rules.simplePatternsOnly || isSimplePattern(node.pattern)) out.pattern = node.pattern;
    else
      sink.add(
        "keyword_dropped",
        childPointer(pointer, "pattern"),
        "pattern uses backreferences, lookaround, \\b or large counts",
        "pattern",
      );
  }
}

function copyCombinators(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  root: JsonSchema,
): void {
  const walkAll = (key: string) =>
    (node[key] as unknown[]).map((branch, index) =>
      walk(branch, childPointer(pointer, key, index), rules, sink, root),
    );
  const anyOf: JsonSchema[] = [];
  if (Array.isArray(node.anyOf)) anyOf.push(...walkAll("anyOf"));
  if (Array.isArray(node.oneOf)) {
    sink.add(
      "keyword_weakened",
      childPointer(pointer, "oneOf"),
      "oneOf sent as anyOf (exclusivity is not enforced)",
      "oneOf",
    );
    anyOf.push(...walkAll("oneOf"));
  }
  if (anyOf.length > 0) out.anyOf = anyOf;
  if (Array.isArray(node.allOf)) {
    const branches = walkAll("allOf");
    if (branches.length === 1 && branches[0]) Object.assign(out, { ...branches[0], ...out });
    else if (!rules.allowAllOf)
      throw new NotStrict(
        `${pointer || "the root"} uses allOf, which strict mode does not support`,
      );
    else if (JSON.stringify(branches).includes('"$ref"'))
      throw new NotStrict(`${pointer || "the root"} combines allOf with $ref`);
    else out.allOf = branches;
  }
}

function objectKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  root: JsonSchema,
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
    const converted = walk(schema, childPointer(pointer, "properties", name), rules, sink, root);
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

function arrayKeywords(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  rules: StrictRules,
  sink: WarningSink,
  root: JsonSchema,
): void {
  const where = pointer || "the root";
  if (node.items === undefined) throw new NotStrict(`${where} is an array without "items"`);
  if (Array.isArray(node.items)) throw new NotStrict(`${where} uses tuple "items"`);
  out.items = walk(node.items, childPointer(pointer, "items"), rules, sink, root);
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
