/**
 * toolsift's own structural check of an input schema, run before Ajv compiles it. Ajv then
 * compiles with `validateSchema: false`: checking a schema against the meta-schema cost 2.3 s for
 * a 20k-value enum (the compile itself 7 ms), and the check here covers what would make Ajv
 * generate wrong code or throw: keyword values of the wrong type, patterns that are not regular
 * expressions, and references Ajv cannot resolve offline.
 */
import { pathOf, type Step, schemaShapeProblem } from "./check-schema-shape.js";

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
  const shape = schemaShapeProblem(schema);
  if (shape !== undefined) return `the schema ${shape}`;
  return keywordWalk(schema);
}

/** `schemaKeywordProblem` without the size check, for schemas that already passed it. */
export function keywordWalk(schema: unknown): string | undefined {
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
