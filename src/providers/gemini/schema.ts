/** Gemini function-declaration schemas: the OpenAPI-3.0 subset of `parameters`, or `parametersJsonSchema`. */
import type { JsonSchema, JsonValue } from "../../catalog/index.js";
import type { ConversionOptions } from "../anthropic/schema.js";
import {
  childPointer,
  isSchemaObject,
  normalizeRoot,
  resolveLocalRef,
  typeList,
} from "../json-schema.js";
import { type ConversionWarning, WarningSink } from "../warnings.js";
import { enumText, type GeminiArgumentMapping, geminiPropertyNames } from "./arguments.js";
import { mergeSchemas, splitByType } from "./merge.js";

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

// every field of the Schema proto (`@google/genai` Schema); anything else is a 400
const KEEP_ANY = ["title", "description", "default", "example"];
const KEEP_BY_TYPE: Record<string, string[]> = {
  string: ["format", "pattern", "minLength", "maxLength"],
  number: ["format", "minimum", "maximum"],
  integer: ["format", "minimum", "maximum"],
  array: ["minItems", "maxItems"],
  object: ["minProperties", "maxProperties"],
};
const HANDLED = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  "properties",
  "required",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "examples",
  "propertyOrdering",
  "additionalProperties",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);
const SILENT = new Set(["$schema", "$id", "$comment", "$anchor", "$defs", "definitions"]);

interface State {
  root: JsonSchema;
  sink: WarningSink;
  mapping: GeminiArgumentMapping;
  refs: string[];
  nodes: number;
  maxRefDepth: number;
  maxNodes: number;
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
      warnings: dedupe(sink.warnings),
      mapping,
    };
  }
  const state: State = {
    root,
    sink,
    mapping,
    refs: [],
    nodes: 0,
    maxRefDepth: options.maxRefDepth ?? 1,
    maxNodes: options.maxNodes ?? 3000,
  };
  const converted = convert(root, "", "", state);
  const empty =
    !isSchemaObject(converted.properties) || Object.keys(converted.properties).length === 0;
  return { field, schema: empty ? undefined : converted, warnings: dedupe(sink.warnings), mapping };
}

function dedupe(warnings: ConversionWarning[]): ConversionWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = JSON.stringify([warning.code, warning.path, warning.keyword, warning.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function stripVendorKeys(node: unknown, pointer: string, sink: WarningSink): unknown {
  if (Array.isArray(node))
    return node.map((item, index) => stripVendorKeys(item, childPointer(pointer, index), sink));
  if (!isSchemaObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key.startsWith("x-")) {
      sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `vendor extension "${key}" removed`,
        key,
      );
      continue;
    }
    // property maps and enum values are data, not keywords
    out[key] =
      key === "enum" || key === "const" || key === "default"
        ? value
        : stripVendorKeys(value, childPointer(pointer, key), sink);
  }
  return out;
}

function convert(node: unknown, pointer: string, argPath: string, state: State): JsonSchema {
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

function resolveShallow(branch: unknown, state: State): JsonSchema {
  if (!isSchemaObject(branch) || typeof branch.$ref !== "string")
    return isSchemaObject(branch) ? branch : {};
  const target = resolveLocalRef(state.root, branch.$ref);
  const { $ref, ...siblings } = branch;
  return isSchemaObject(target) ? { ...target, ...siblings } : siblings;
}

function convertRef(node: JsonSchema, pointer: string, argPath: string, state: State): JsonSchema {
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
  state: State,
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

function convertPlain(
  node: JsonSchema,
  types: string[],
  nullable: boolean,
  pointer: string,
  argPath: string,
  state: State,
): JsonSchema {
  const out: JsonSchema = {};
  let type = types[0];
  if (!type && isSchemaObject(node.properties)) type = "object";
  else if (!type && node.items !== undefined) type = "array";
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  let isNullable = nullable;
  if (values) {
    if (values.includes(null)) isNullable = true;
    type = convertEnum(
      values.filter((value) => value !== null) as JsonValue[],
      type,
      out,
      pointer,
      argPath,
      state,
    );
  }
  if (type) out.type = type;
  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key) || SILENT.has(key)) continue;
    const ownKeyword = type !== undefined && (KEEP_BY_TYPE[type] ?? []).includes(key);
    if (KEEP_ANY.includes(key) || (ownKeyword && !(key in out))) out[key] = value;
    else
      state.sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" is not accepted by Gemini here`,
        key,
      );
  }
  if (Array.isArray(node.examples) && node.examples.length > 0 && !("example" in out))
    out.example = node.examples[0];
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"] as const) {
    const bound = node[key];
    const target = key === "exclusiveMinimum" ? "minimum" : "maximum";
    if (
      typeof bound === "number" &&
      (type === "number" || type === "integer") &&
      !(target in out)
    ) {
      out[target] = bound;
      state.sink.add(
        "keyword_weakened",
        childPointer(pointer, key),
        `${key} ${bound} sent as inclusive ${target}`,
        key,
      );
    } else if (key in node) {
      state.sink.add(
        "keyword_dropped",
        childPointer(pointer, key),
        `"${key}" is not accepted by Gemini here`,
        key,
      );
    }
  }
  if (isNullable) out.nullable = true;
  if (type === "object") convertObject(node, out, pointer, argPath, state);
  else if ("properties" in node || "required" in node) {
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "properties"),
      `object keywords on type "${type}" removed`,
      "properties",
    );
  }
  if (type === "array") convertItems(node, out, pointer, argPath, state);
  else if ("items" in node)
    state.sink.add(
      "keyword_dropped",
      childPointer(pointer, "items"),
      `"items" on type "${type}" removed`,
      "items",
    );
  return out;
}

function convertEnum(
  values: JsonValue[],
  type: string | undefined,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: State,
): string | undefined {
  if (values.every((value) => typeof value === "string")) {
    out.enum = values;
    out.format = "enum";
    return type ?? "string";
  }
  const numeric = values.every((value) => typeof value === "number");
  const integral = numeric && values.every((value) => Number.isInteger(value));
  const newType =
    numeric && (type === "number" || type === "integer")
      ? type
      : integral
        ? "integer"
        : numeric
          ? "number"
          : "string";
  out.enum = values.map(enumText);
  out.format = "enum";
  const existing = state.mapping.values[argPath] ?? [];
  state.mapping.values[argPath] = [
    ...existing,
    ...values.filter((value) => !existing.some((old) => enumText(old) === enumText(value))),
  ];
  state.sink.add(
    "enum_stringified",
    childPointer(pointer, "enum"),
    `enum values ${JSON.stringify(values).slice(0, 80)} sent as strings`,
    "enum",
  );
  return newType;
}

function convertObject(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: State,
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
    properties[newName] = convert(
      schema,
      childPointer(pointer, "properties", name),
      childPath,
      state,
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

function convertItems(
  node: JsonSchema,
  out: JsonSchema,
  pointer: string,
  argPath: string,
  state: State,
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
        convert(item, childPointer(pointer, "items", index), itemsPath, state),
      ),
    };
  } else if (node.items !== undefined) {
    out.items = convert(node.items, childPointer(pointer, "items"), itemsPath, state);
  }
}
