/**
 * The walk shared by Anthropic's and OpenAI's strict modes: it rewrites a schema into a provider's
 * strict subset, dropping constraint keywords with a warning, and gives up (`strict: false`) where
 * a rewrite would change which arguments are valid in a way the model would notice.
 */
import type { JsonSchema } from "../../catalog/index.js";
import type { WarningSink } from "../warnings.js";
import { copyValueKeywords, inferType } from "./copy-value-keywords.js";
import { childPointer, isSchemaObject, resolveLocalRef, typeList } from "./json-schema.js";
import { strictArrayKeywords, strictObjectKeywords } from "./strict-object-keywords.js";
import {
  NotStrict,
  type StrictConversion,
  type StrictRules,
  type StrictWalk,
} from "./strict-rules.js";

export type { StrictConversion, StrictRules } from "./strict-rules.js";

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
  const walkChild: StrictWalk = (child, at) => walk(child, at, rules, sink, root);
  if (finalTypes.includes("object") || (types.length === 0 && isSchemaObject(node.properties))) {
    strictObjectKeywords(node, out, pointer, rules, sink, walkChild);
  }
  if (finalTypes.includes("array")) strictArrayKeywords(node, out, pointer, rules, sink, walkChild);
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
