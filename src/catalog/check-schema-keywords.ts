/**
 * toolsift's own structural check of an input schema, run before Ajv compiles it. Ajv then
 * compiles with `validateSchema: false`: checking a schema against the meta-schema cost 2.3 s for
 * a 20k-value enum (the compile itself 7 ms), and the check here covers what would make Ajv
 * generate wrong code or throw: keyword values of the wrong type, patterns that are not regular
 * expressions, and references Ajv cannot resolve offline.
 */
import {
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  objectWithinLimits,
  pathOf,
  type Step,
  schemaShapeProblem,
} from "./check-schema-shape.js";

const COUNTS = [
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "maxProperties",
  "minProperties",
  "maxContains",
  "minContains",
];
const NUMBERS = ["maximum", "minimum", "multipleOf"];
// draft-04 wrote exclusive bounds as booleans beside maximum/minimum
const BOUNDS = ["exclusiveMaximum", "exclusiveMinimum"];
const NUMERIC = [...NUMBERS, ...BOUNDS];
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_ONE = [
  "additionalProperties",
  "additionalItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function regexProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") return "is not a string";
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return `is not a valid regular expression (${error instanceof Error ? error.message : "rejected"})`;
  }
}

// the problem with one schema object's own keywords, or undefined
function keywordProblem(schema: Record<string, unknown>, step: Step): string | undefined {
  // the place is spelled out only when there is a problem to report
  const at = () => {
    const path = pathOf(step);
    return path === "(root)" ? "" : path;
  };
  for (const key of COUNTS) {
    const value = schema[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      return `${at()}/${key} is ${JSON.stringify(value)}, not a whole number`;
    }
  }
  for (const key of NUMERIC) {
    const value = schema[key];
    const ok =
      typeof value === "number"
        ? Number.isFinite(value)
        : BOUNDS.includes(key) && typeof value === "boolean";
    if (value !== undefined && !ok)
      return `${at()}/${key} is ${JSON.stringify(value)}, not a number`;
  }
  if (schema.multipleOf !== undefined && !((schema.multipleOf as number) > 0)) {
    return `${at()}/multipleOf must be greater than 0`;
  }
  if (schema.pattern !== undefined) {
    const problem = regexProblem(schema.pattern);
    if (problem) return `${at()}/pattern ${problem}`;
  }
  if (isObject(schema.patternProperties)) {
    for (const key of Object.keys(schema.patternProperties)) {
      const problem = regexProblem(key);
      if (problem) return `${at()}/patternProperties key ${JSON.stringify(key)} ${problem}`;
    }
  }
  const type = schema.type;
  if (type !== undefined && !(typeof type === "string" && TYPES.has(type))) {
    // arrays of type names are rare: the list is built only for them
    const list: unknown[] = Array.isArray(type) ? type : [type];
    const badType = list.find((name) => typeof name !== "string" || !TYPES.has(name));
    if (badType !== undefined) {
      return `${at()}/type holds ${JSON.stringify(badType)}, not a JSON type`;
    }
  }
  if (schema.required !== undefined && typeof schema.required !== "boolean") {
    const required = schema.required;
    if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
      return `${at()}/required is not a list of property names`;
    }
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${at()}/enum is not a list`;
  const ref = schema.$ref;
  if (ref !== undefined && (typeof ref !== "string" || !ref.startsWith("#"))) {
    return `${at()}/$ref ${JSON.stringify(ref)} points outside the schema, and remote schemas are not fetched`;
  }
  return undefined;
}

/**
 * Why a schema cannot be checked reliably, as a sentence naming the place, or undefined.
 * Bounded: the catalog's size and depth limits are checked first.
 */
export function schemaKeywordProblem(schema: unknown): string | undefined {
  if (schemaClean(schema)) return undefined;
  const shape = schemaShapeProblem(schema);
  if (shape !== undefined) return `the schema ${shape}`;
  return firstKeywordProblem(schema);
}

/** `schemaKeywordProblem` without the size check, for schemas that already passed it. */
export function keywordWalk(schema: unknown): string | undefined {
  // nearly every schema is clean: one pass over the keys each node has says so, and only a
  // schema with a problem (or an unusual object) is walked again to name the first problem
  return schemaClean(schema) ? undefined : firstKeywordProblem(schema);
}

/**
 * True when a schema keeps every size limit (`schemaShapeProblem` finds nothing) and
 * `firstKeywordProblem` finds no problem in it: both checks of a loaded input schema in one
 * walk, which reads each object's keys once (two walks cost ~1.6 times one over the real
 * catalogs, all of it cold code in a start without a cache). False means "check each in full",
 * not "invalid".
 */
export function schemaClean(schema: unknown): boolean {
  return new SchemaScan().clean(schema, 1, AT_SCHEMA);
}

// what `keywordPlace` does with a keyword: check its value, or walk the schemas it holds
const COUNT = 1;
const NUMBER = 2;
const BOUND = 3;
const SCHEMA_MAP = 4;
const SCHEMA_LIST = 5;
const SCHEMA = 6;

const KINDS = new Map<string, number>([
  ...COUNTS.map((key) => [key, COUNT] as const),
  ...NUMBERS.map((key) => [key, NUMBER] as const),
  ...BOUNDS.map((key) => [key, BOUND] as const),
  ...SCHEMA_MAPS.map((key) => [key, SCHEMA_MAP] as const),
  ...SCHEMA_LISTS.map((key) => [key, SCHEMA_LIST] as const),
  ...SCHEMA_ONE.map((key) => [key, SCHEMA] as const),
]);

// where a value sits in a schema, which decides the keyword rules it is held to
const BAD = -1;
/** Data (a `default`, an `enum` list, a keyword's number): only the size limits apply. */
const AT_DATA = 0;
const AT_SCHEMA = 1;
/** An object of schemas (`properties`, `$defs`); `patternProperties` also checks its keys. */
const AT_MAP = 2;
const AT_PATTERN_MAP = 3;
/** A list of schemas (`anyOf`, `items` as a list). */
const AT_LIST = 4;
/** `dependencies`: its lists are data, its other values schemas. */
const AT_DEPENDENCIES = 5;

/** Patterns that compiled, so a pattern repeated across tools is compiled once. */
const validPatterns = new Set<string>();

function patternValid(pattern: unknown): boolean {
  if (typeof pattern !== "string") return false;
  if (validPatterns.has(pattern)) return true;
  if (regexProblem(pattern) !== undefined) return false;
  validPatterns.add(pattern);
  return true;
}

/**
 * The walk behind `schemaClean`: every value is counted and every object held to the size
 * limits, as `schemaShapeProblem`'s quick pass does, and an object where a schema belongs is
 * held to the keyword rules by looking only at the keys it has (2–4 in most nodes, where the
 * full check looks up 35 keywords in each), allocating nothing. Any object that is not a plain
 * one where a schema belongs fails (a class instance may hold keywords on its prototype), so it
 * gets the full checks. Recursion stops past `MAX_SCHEMA_DEPTH` levels, so a cycle cannot
 * overflow the stack; the keyword walk's depths are the shape's (a map's entry is two levels
 * below its schema, as in `firstKeywordProblem`).
 */
class SchemaScan {
  private nodes = 0;

  clean(value: unknown, depth: number, at: number): boolean {
    this.nodes += 1;
    if (this.nodes > MAX_SCHEMA_NODES) return false;
    if (typeof value !== "object" || value === null) {
      if (at === AT_SCHEMA) return typeof value === "boolean";
      return at === AT_DATA || at === AT_DEPENDENCIES;
    }
    if (depth > MAX_SCHEMA_DEPTH) return false;
    if (Array.isArray(value)) {
      if (at === AT_SCHEMA || at === AT_MAP || at === AT_PATTERN_MAP) return false;
      const inner = at === AT_LIST ? AT_SCHEMA : AT_DATA;
      for (let index = 0; index < value.length; index += 1) {
        if (!this.clean(value[index], depth + 1, inner)) return false;
      }
      return true;
    }
    const record = value as Record<string, unknown>;
    if (at === AT_LIST || !objectWithinLimits(record)) return false;
    if (at === AT_SCHEMA) {
      const prototype = Object.getPrototypeOf(record);
      if (prototype !== Object.prototype && prototype !== null) return false;
    }
    const keys = Object.keys(record);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const child = record[key];
      let inner = AT_DATA;
      if (at === AT_SCHEMA) inner = child === undefined ? AT_DATA : keywordPlace(key, child);
      else if (at === AT_MAP) inner = AT_SCHEMA;
      else if (at === AT_PATTERN_MAP) inner = patternValid(key) ? AT_SCHEMA : BAD;
      else if (at === AT_DEPENDENCIES) inner = Array.isArray(child) ? AT_DATA : AT_SCHEMA;
      if (inner === BAD || !this.clean(child, depth + 1, inner)) return false;
    }
    return true;
  }
}

/** Where the value of a schema's keyword sits (`BAD` when the value breaks its rule). */
function keywordPlace(key: string, value: unknown): number {
  switch (KINDS.get(key)) {
    case COUNT:
      return Number.isInteger(value) && (value as number) >= 0 ? AT_DATA : BAD;
    case NUMBER:
      return typeof value === "number" &&
        Number.isFinite(value) &&
        (key !== "multipleOf" || value > 0)
        ? AT_DATA
        : BAD;
    case BOUND:
      return typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
        ? AT_DATA
        : BAD;
    case SCHEMA_MAP:
      return key === "patternProperties" ? AT_PATTERN_MAP : AT_MAP;
    case SCHEMA_LIST:
      return AT_LIST;
    case SCHEMA:
      return AT_SCHEMA;
  }
  switch (key) {
    case "items":
      return Array.isArray(value) ? AT_LIST : AT_SCHEMA;
    case "dependencies":
      return AT_DEPENDENCIES;
  }
  return keywordValueClean(key, value) ? AT_DATA : BAD;
}

/** The rules of the keywords whose values are data, not schemas. */
function keywordValueClean(key: string, value: unknown): boolean {
  switch (key) {
    case "pattern":
      return patternValid(value);
    case "type":
      return typeof value === "string"
        ? TYPES.has(value)
        : Array.isArray(value) &&
            value.every((name) => typeof name === "string" && TYPES.has(name));
    case "required":
      return (
        typeof value === "boolean" ||
        (Array.isArray(value) && value.every((name) => typeof name === "string"))
      );
    case "enum":
      return Array.isArray(value);
    case "$ref":
      return typeof value === "string" && value.startsWith("#");
  }
  return true;
}

/** `keywordWalk` step by step in its reporting order, naming the first problem and its place
 * (exported for the test that holds the quick pass to it). */
export function firstKeywordProblem(schema: unknown): string | undefined {
  const stack: Step[] = [{ value: schema, depth: 1, key: "", up: undefined }];
  // a step per key of the path (`properties`, then the name), so pathOf can spell it out
  const push = (value: unknown, up: Step, key: string, inner?: string) => {
    let step: Step = { value, depth: up.depth + 1, key, up };
    if (inner !== undefined) {
      step = { value, depth: step.depth + 1, key: inner, up: { ...step, value: undefined } };
    }
    stack.push(step);
  };
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const current = step.value;
    if (typeof current === "boolean") continue;
    if (!isObject(current)) return `${pathOf(step)} is ${JSON.stringify(current)}, not a schema`;
    const problem = keywordProblem(current, step);
    if (problem !== undefined) return problem;
    for (const key of SCHEMA_MAPS) {
      const map = current[key];
      if (map === undefined) continue;
      if (!isObject(map)) return `${pathOf(step)}/${key} is not an object of schemas`;
      for (const name of Object.keys(map)) push(map[name], step, key, name);
    }
    for (const key of SCHEMA_LISTS) {
      const list = current[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return `${pathOf(step)}/${key} is not a list of schemas`;
      list.forEach((item, index) => {
        push(item, step, key, String(index));
      });
    }
    for (const key of SCHEMA_ONE) {
      if (current[key] !== undefined) push(current[key], step, key);
    }
    const items = current.items;
    if (Array.isArray(items)) {
      items.forEach((item, index) => {
        push(item, step, "items", String(index));
      });
    } else if (items !== undefined) push(items, step, "items");
    if (isObject(current.dependencies)) {
      for (const [name, value] of Object.entries(current.dependencies)) {
        if (!Array.isArray(value)) push(value, step, "dependencies", name);
      }
    }
  }
  return undefined;
}
