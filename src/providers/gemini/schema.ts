/** Gemini function-declaration schemas: the OpenAPI-3.0 subset of `parameters`, or `parametersJsonSchema`. */
import type { JsonSchema } from "../../catalog/index.js";
import {
  childPointer,
  isSchemaObject,
  normalizeRoot,
  resolveLocalRef,
  typeList,
} from "../schema/json-schema.js";
import type { ConversionOptions } from "../schema/schema-conversion.js";
import { type ConversionWarning, dedupeWarnings, WarningSink } from "../warnings.js";
import type { GeminiArgumentMapping } from "./arguments.js";
import { convertPlain } from "./convert-plain.js";
import { mergeSchemas, splitByType } from "./merge.js";
import { stripVendorKeys } from "./strip-vendor-keys.js";
import type { GeminiWalkState } from "./walk-state.js";

/** Options for the Gemini conversion. */
export interface GeminiSchemaOptions extends ConversionOptions {
  /** `parameters` (default): the strict OpenAPI subset. `parametersJsonSchema`: JSON Schema, lightly cleaned. */
  field?: "parameters" | "parametersJsonSchema";
  /** How often one `$ref` may be expanded inside itself before it is cut; default 1. */
  maxRefDepth?: number;
  /** Schema nodes written before further `$ref`s are cut; default 3000. */
  maxNodes?: number;
}

/** A Gemini schema, the field it belongs in, and how to map call arguments back. */
export interface GeminiConversion {
  field: "parameters" | "parametersJsonSchema";
  /** Undefined when the tool takes no arguments: omit the field then. */
  schema: JsonSchema | undefined;
  warnings: ConversionWarning[];
  mapping: GeminiArgumentMapping;
}

/**
 * Converts an input schema for a Gemini function declaration. For `parameters`: `$ref`s are
 * inlined (recursion is cut with a warning), type arrays become one type plus `nullable`, `const`
 * and non-string enums become string enums with `format: "enum"`, allOf is merged, oneOf becomes
 * anyOf, keywords outside the Schema proto are dropped with a warning, and illegal property names
 * are renamed. Use `restoreGeminiArguments(args, result.mapping)` on the calls that come back.
 */
export function toGeminiSchema(
  schema: JsonSchema,
  options: GeminiSchemaOptions = {},
): GeminiConversion {
  const sink = new WarningSink(options.tool ?? "(unnamed)");
  const mapping: GeminiArgumentMapping = { renamed: {}, values: {} };
  const root = normalizeRoot(schema, sink);
  const field = options.field ?? "parameters";
  if (field === "parametersJsonSchema") {
    return {
      field,
      schema: stripVendorKeys(root, "", sink) as JsonSchema,
      warnings: dedupeWarnings(sink.warnings),
      mapping,
    };
  }
  const state: GeminiWalkState = {
    root,
    sink,
    mapping,
    refs: [],
    nodes: 0,
    maxRefDepth: options.maxRefDepth ?? 1,
    maxNodes: options.maxNodes ?? 3000,
    convert: (node, pointer, argPath) => convert(node, pointer, argPath, state),
  };
  const converted = convert(root, "", "", state);
  const empty =
    !isSchemaObject(converted.properties) || Object.keys(converted.properties).length === 0;
  return {
    field,
    schema: empty ? undefined : converted,
    warnings: dedupeWarnings(sink.warnings),
    mapping,
  };
}

function convert(
  node: unknown,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): JsonSchema {
  state.nodes++;
  if (!isSchemaObject(node)) return {};
  if (typeof node.$ref === "string") return convertRef(node, pointer, argPath, state);
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    let merged: JsonSchema = rest;
    (allOf as unknown[]).forEach((branch, index) => {
      merged = mergeSchemas(
        merged,
        resolveShallow(branch, state),
        childPointer(pointer, "allOf", index),
        state.sink,
      );
    });
    return convert(merged, pointer, argPath, state);
  }
  if (Array.isArray(node.anyOf) || Array.isArray(node.oneOf))
    return convertUnion(node, pointer, argPath, state);
  const types = typeList(node).filter((type) => type !== "null");
  const nullable = typeList(node).includes("null") || node.nullable === true;
  if (types.length > 1 && !Array.isArray(node.enum) && !("const" in node)) {
    const branches = splitByType(node, types).map((branch) => ({
      ...convert(branch, pointer, argPath, state),
      ...(nullable ? { nullable: true } : {}),
    }));
    return { anyOf: branches };
  }
  return convertPlain(node, types, nullable, pointer, argPath, state);
}

function resolveShallow(branch: unknown, state: GeminiWalkState): JsonSchema {
  if (!isSchemaObject(branch) || typeof branch.$ref !== "string")
    return isSchemaObject(branch) ? branch : {};
  const target = resolveLocalRef(state.root, branch.$ref);
  const { $ref, ...siblings } = branch;
  return isSchemaObject(target) ? { ...target, ...siblings } : siblings;
}

function convertRef(
  node: JsonSchema,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): JsonSchema {
  const ref = node.$ref as string;
  const { $ref, ...siblings } = node;
  const target = resolveLocalRef(state.root, ref);
  if (!isSchemaObject(target)) {
    state.sink.add(
      "ref_unresolved",
      childPointer(pointer, "$ref"),
      `$ref "${ref}" cannot be resolved; any value is accepted there`,
      "$ref",
    );
    return convert(siblings, pointer, argPath, state);
  }
  const depth = state.refs.filter((entry) => entry === ref).length;
  if (depth >= state.maxRefDepth || state.nodes >= state.maxNodes) {
    const why = depth >= state.maxRefDepth ? "recursive" : "too large to inline";
    state.sink.add(
      "recursion_cut",
      childPointer(pointer, "$ref"),
      `$ref "${ref}" is ${why}; cut to a loose schema`,
      "$ref",
    );
    const cut: JsonSchema = {};
    const type = typeList(target).find((entry) => entry !== "null");
    if (type && type !== "object" && type !== "array") cut.type = type;
    else if (type) cut.type = type;
    const description = siblings.description ?? target.description;
    if (typeof description === "string") cut.description = description;
    return cut;
  }
  state.refs.push(ref);
  const { $defs, definitions, ...body } = target;
  const merged = mergeSchemas(body, siblings, pointer, state.sink);
  const result = convert(merged, ref.startsWith("#/") ? ref.slice(1) : pointer, argPath, state);
  state.refs.pop();
  return result;
}

function convertUnion(
  node: JsonSchema,
  pointer: string,
  argPath: string,
  state: GeminiWalkState,
): JsonSchema {
  const { anyOf, oneOf, ...siblings } = node;
  if (Array.isArray(oneOf))
    state.sink.add(
      "keyword_weakened",
      childPointer(pointer, "oneOf"),
      "oneOf sent as anyOf (exclusivity is not enforced)",
      "oneOf",
    );
  const all = [...(Array.isArray(anyOf) ? anyOf : []), ...(Array.isArray(oneOf) ? oneOf : [])];
  const isNull = (branch: unknown) =>
    isSchemaObject(branch) && branch.type === "null" && Object.keys(branch).length <= 2;
  const nullable = all.some(isNull);
  const branches = all.filter((branch) => !isNull(branch));
  const key = Array.isArray(anyOf) ? "anyOf" : "oneOf";
  const converted = branches.map((branch, index) => {
    const merged = mergeSchemas(
      siblings,
      isSchemaObject(branch) ? branch : {},
      childPointer(pointer, key, index),
      state.sink,
    );
    const result = convert(merged, childPointer(pointer, key, index), argPath, state);
    return nullable ? { ...result, nullable: true } : result;
  });
  if (converted.length === 1 && converted[0]) return converted[0];
  if (converted.length === 0)
    return { ...convert(siblings, pointer, argPath, state), nullable: true };
  // Gemini rejects keywords beside anyOf, so the siblings were copied into every branch
  return { anyOf: converted };
}
