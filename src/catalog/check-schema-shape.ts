/**
 * Size and depth limits for tool schemas, checked at load so that no later step (Ajv, provider
 * converters, signatures, token estimates) meets a schema it cannot handle: 3,000 nested
 * `properties` made every turn throw RangeError, and a 20k-value enum took seconds to compile.
 * The real catalogs stay far below every limit (deepest 21 levels, largest 2,871 values, enums
 * of 32 values, 27 properties).
 */

/** Deepest nesting of objects and arrays in a schema (the root is level 1). */
export const MAX_SCHEMA_DEPTH = 64;
/** Most values (objects, arrays and scalars) in one schema. */
export const MAX_SCHEMA_NODES = 20_000;
/** Most values in one `enum`. */
export const MAX_ENUM_VALUES = 2_000;
/** Most entries in one `properties` object. */
export const MAX_PROPERTIES = 1_000;

/**
 * The first limit a schema breaks, as a sentence naming the limit and the place, or undefined.
 * Bounded by `MAX_SCHEMA_NODES` and `MAX_SCHEMA_DEPTH`, so a cyclic object graph is reported as
 * too deep or too large instead of looping.
 */
export function schemaShapeProblem(schema: unknown): string | undefined {
  // every loaded schema is checked and nearly all pass: a walk that allocates nothing says so,
  // and only a schema that breaks a limit is walked again to name the first problem and place
  return new ShapeCount().within(schema, 1) ? undefined : firstShapeProblem(schema);
}

/**
 * Whether a schema keeps every limit: the same values, depths and limits as `firstShapeProblem`
 * (which finds a problem exactly when this finds one), by recursion that builds no steps and no
 * paths. Recursion stops past `MAX_SCHEMA_DEPTH` levels, so a cycle cannot overflow the stack.
 */
class ShapeCount {
  private nodes = 0;

  within(value: unknown, depth: number): boolean {
    this.nodes += 1;
    if (this.nodes > MAX_SCHEMA_NODES) return false;
    if (typeof value !== "object" || value === null) return true;
    if (depth > MAX_SCHEMA_DEPTH) return false;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        if (!this.within(value[index], depth + 1)) return false;
      }
      return true;
    }
    const record = value as Record<string, unknown>;
    if (!objectWithinLimits(record)) return false;
    const keys = Object.keys(record);
    for (let index = 0; index < keys.length; index += 1) {
      if (!this.within(record[keys[index] as string], depth + 1)) return false;
    }
    return true;
  }
}

/** Whether an object keeps the limits on its own keywords: its `enum` and `properties` sizes
 * (the quick passes' share of the rules `firstShapeProblem` reports). */
export function objectWithinLimits(record: Record<string, unknown>): boolean {
  const values = record.enum;
  if (Array.isArray(values) && values.length > MAX_ENUM_VALUES) return false;
  const properties = record.properties;
  if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
    if (Object.keys(properties).length > MAX_PROPERTIES) return false;
  }
  return true;
}

/** `schemaShapeProblem` step by step in its reporting order, naming the first problem and its
 * place (exported for the test that holds the quick pass to it). */
export function firstShapeProblem(schema: unknown): string | undefined {
  // paths are rebuilt from parent links only for the message: a string per node cost more than
  // the walk itself on 100k tools
  const stack: Step[] = [{ value: schema, depth: 1, key: "", up: undefined }];
  let nodes = 0;
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const value = step.value;
    nodes += 1;
    if (nodes > MAX_SCHEMA_NODES) {
      return `has more than ${MAX_SCHEMA_NODES.toLocaleString("en")} values (MAX_SCHEMA_NODES); split the tool or simplify its schema`;
    }
    if (typeof value !== "object" || value === null) continue;
    if (step.depth > MAX_SCHEMA_DEPTH) {
      return `is nested deeper than ${MAX_SCHEMA_DEPTH} levels (MAX_SCHEMA_DEPTH) at ${pathOf(step)}; flatten it`;
    }
    const depth = step.depth + 1;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        stack.push({ value: value[index], depth, key: String(index), up: step });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.enum) && record.enum.length > MAX_ENUM_VALUES) {
      return `has an enum of ${record.enum.length.toLocaleString("en")} values at ${pathOf(step)}/enum (MAX_ENUM_VALUES is ${MAX_ENUM_VALUES.toLocaleString("en")}); use a string with a pattern or a lookup tool instead`;
    }
    const properties = record.properties;
    if (typeof properties === "object" && properties !== null && !Array.isArray(properties)) {
      const count = Object.keys(properties).length;
      if (count > MAX_PROPERTIES) {
        return `has ${count.toLocaleString("en")} properties at ${pathOf(step)}/properties (MAX_PROPERTIES is ${MAX_PROPERTIES.toLocaleString("en")}); group them into nested objects or split the tool`;
      }
    }
    for (const key of Object.keys(record)) {
      stack.push({ value: record[key], depth, key, up: step });
    }
  }
  return undefined;
}

/** A value met by a schema walk, and how it was reached. */
export interface Step {
  value: unknown;
  depth: number;
  key: string;
  up: Step | undefined;
}

/** The JSON pointer of a step, shortened to 80 characters; `(root)` for the root. */
export function pathOf(step: Step): string {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.up !== undefined; at = at.up) keys.push(at.key);
  const shown = keys.length === 0 ? "(root)" : `/${keys.reverse().join("/")}`;
  return shown.length > 80 ? `${shown.slice(0, 40)}…${shown.slice(-39)}` : shown;
}
