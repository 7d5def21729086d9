/** Small JSON Schema helpers shared by every provider's schema conversion. */
import type { JsonSchema } from "../../catalog/index.js";
import type { WarningSink } from "../warnings.js";

/** Tests whether a value is a plain JSON object (not an array, not null). */
export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Keys a restored argument object never takes: assigned into a plain object, `__proto__` would set
 * its prototype (a model could then plant inherited fields that no hook sees), and `constructor` /
 * `prototype` are the other prototype-pollution handles.
 */
export function isUnsafeKey(key: string): boolean {
  return key === "__proto__" || key === "constructor" || key === "prototype";
}

/** Appends segments to a JSON pointer, escaping `~` and `/` as RFC 6901 requires. */
export function childPointer(pointer: string, ...segments: (string | number)[]): string {
  let result = pointer;
  for (const segment of segments) {
    result += `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return result;
}

/** Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any `#/...` pointer) in `root`. */
export function resolveLocalRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isSchemaObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
    if (node === undefined) return undefined;
  }
  return node;
}

/** The `type` keyword as a list (empty when absent or malformed). */
export function typeList(schema: JsonSchema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type))
    return type.filter((entry): entry is string => typeof entry === "string");
  return [];
}

/** Whether the schema accepts `null` through its `type`, `enum`, `const` or an anyOf branch. */
export function acceptsNull(schema: JsonSchema): boolean {
  if (typeList(schema).includes("null")) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ("const" in schema && schema.const === null) return true;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((b) => isSchemaObject(b) && acceptsNull(b))) {
      return true;
    }
  }
  return false;
}

function stableJson(value: unknown): string {
  return JSON.stringify(value);
}

function requiredList(schema: JsonSchema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((entry): entry is string => typeof entry === "string")
    : [];
}

function describeBranch(branch: JsonSchema): string {
  const required = requiredList(branch);
  const props = isSchemaObject(branch.properties) ? Object.keys(branch.properties) : [];
  if (required.length > 0) return `required [${required.join(", ")}]`;
  if (props.length > 0) return `properties [${props.join(", ")}]`;
  return stableJson(branch).slice(0, 80);
}

/**
 * Returns a root that every provider accepts as a tool's input: an object schema without
 * `$schema` and without a root anyOf/oneOf/allOf. Root unions are flattened: every branch's
 * properties become optional properties of the root, and only the properties all branches require
 * stay required (the choice between branches is reported as a warning, not enforced).
 */
export function normalizeRoot(input: JsonSchema, sink: WarningSink): JsonSchema {
  const root: JsonSchema = { ...input };
  // `$schema` names a dialect; it constrains no argument, so dropping it loses nothing
  delete root.$schema;
  const types = typeList(root);
  if (types.length === 0 && !("type" in root)) {
    root.type = "object";
  } else if (!types.includes("object")) {
    sink.add(
      "root_replaced",
      "",
      `root type ${stableJson(root.type)} is not "object"; replaced by an empty object schema`,
      "type",
    );
    const replaced: JsonSchema = { type: "object", properties: {} };
    if (typeof root.description === "string") replaced.description = root.description;
    return replaced;
  } else if (types.length > 1) {
    sink.add(
      "type_narrowed",
      "",
      `root type ${stableJson(root.type)} narrowed to "object"`,
      "type",
    );
    root.type = "object";
  }
  const properties: JsonSchema = isSchemaObject(root.properties) ? { ...root.properties } : {};
  const required = new Set(requiredList(root));
  if (Array.isArray(root.allOf)) {
    flattenAllOf(root, input, properties, required, sink);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(root[key])) flattenUnion(root, input, key, properties, required, sink);
  }
  if (Object.keys(properties).length > 0 || "properties" in root) root.properties = properties;
  if (required.size > 0) root.required = [...required];
  else delete root.required;
  return root;
}

function resolveBranch(branch: unknown, original: JsonSchema): JsonSchema {
  if (isSchemaObject(branch) && typeof branch.$ref === "string") {
    const target = resolveLocalRef(original, branch.$ref);
    if (isSchemaObject(target)) {
      const merged: JsonSchema = { ...target, ...branch };
      delete merged.$ref;
      return merged;
    }
  }
  return isSchemaObject(branch) ? branch : {};
}

function flattenAllOf(
  root: JsonSchema,
  original: JsonSchema,
  properties: JsonSchema,
  required: Set<string>,
  sink: WarningSink,
): void {
  const branches = (root.allOf as unknown[]).map((branch) => resolveBranch(branch, original));
  delete root.allOf;
  for (const branch of branches) {
    const branchProps = isSchemaObject(branch.properties) ? branch.properties : {};
    for (const [name, schema] of Object.entries(branchProps)) {
      const existing = properties[name];
      properties[name] =
        existing === undefined || stableJson(existing) === stableJson(schema)
          ? schema
          : { allOf: [existing, schema] };
    }
    for (const name of requiredList(branch)) required.add(name);
  }
  sink.add(
    "root_combinator_flattened",
    "",
    `root allOf with ${branches.length} branch(es) merged into the root object`,
    "allOf",
  );
}

function flattenUnion(
  root: JsonSchema,
  original: JsonSchema,
  key: "anyOf" | "oneOf",
  properties: JsonSchema,
  required: Set<string>,
  sink: WarningSink,
): void {
  const branches = (root[key] as unknown[])
    .map((branch) => resolveBranch(branch, original))
    .filter((branch) => typeList(branch).length === 0 || typeList(branch).includes("object"));
  delete root[key];
  const variants = new Map<string, unknown[]>();
  for (const branch of branches) {
    const branchProps = isSchemaObject(branch.properties) ? branch.properties : {};
    for (const [name, schema] of Object.entries(branchProps)) {
      if (name in properties && !variants.has(name)) continue; // root definition wins
      const list = variants.get(name) ?? [];
      if (!list.some((entry) => stableJson(entry) === stableJson(schema))) list.push(schema);
      variants.set(name, list);
    }
  }
  for (const [name, list] of variants) {
    properties[name] = list.length === 1 ? list[0] : { anyOf: list };
  }
  const shared = branches.map((branch) => new Set(requiredList(branch)));
  const first = shared[0];
  if (first) {
    for (const name of first) if (shared.every((set) => set.has(name))) required.add(name);
  }
  sink.add(
    "root_combinator_flattened",
    "",
    `root ${key} removed; the arguments should match ${key === "oneOf" ? "exactly one" : "at least one"} of: ${branches.map(describeBranch).join(" | ")}`,
    key,
  );
}
