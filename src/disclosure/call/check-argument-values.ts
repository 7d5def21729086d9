/**
 * A bounded walk over call arguments before they reach Ajv, the repairs and the handler: model
 * JSON 100k levels deep overflowed Ajv's recursion, `1e999` parsed to Infinity passed
 * `type: number` and reached the handler as `null`, and host objects with throwing getters made
 * `execute` throw instead of answering.
 */

import { errorText } from "../../internal/index.js";

/** Deepest nesting accepted in call arguments (the arguments object is level 1). */
export const MAX_ARGUMENT_DEPTH = 100;
/** Most values (objects, arrays, scalars) accepted in one call's arguments. */
export const MAX_ARGUMENT_VALUES = 1_000_000;

// a visited value and how it was reached; paths are rebuilt only for the message
interface Step {
  value: unknown;
  depth: number;
  key: string;
  up: Step | undefined;
}

function pathOf(step: Step | undefined): string[] {
  const path: string[] = [];
  for (let at = step; at?.up !== undefined; at = at.up) path.push(at.key);
  return path.reverse();
}

function pointer(path: readonly string[]): string {
  const text = path.map((part) => `/${part.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  return text === "" ? "(root)" : text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Why arguments cannot be checked or passed on, naming the place, or undefined when they can. */
export function argumentProblem(args: object): string | undefined {
  const stack: Step[] = [{ value: args, depth: 1, key: "", up: undefined }];
  let values = 0;
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const value = step.value;
    values += 1;
    if (values > MAX_ARGUMENT_VALUES) {
      return `they hold more than ${MAX_ARGUMENT_VALUES.toLocaleString("en")} values (MAX_ARGUMENT_VALUES)`;
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      return `the number at ${pointer(pathOf(step))} is ${value} (a JSON number too large, or not a number); send a finite number`;
    }
    if (typeof value !== "object" || value === null) continue;
    if (step.depth > MAX_ARGUMENT_DEPTH) {
      return `they are nested deeper than ${MAX_ARGUMENT_DEPTH} levels (MAX_ARGUMENT_DEPTH) at ${pointer(pathOf(step))}; flatten them`;
    }
    let keys: string[];
    try {
      keys = Object.keys(value);
    } catch (error) {
      return `the object at ${pointer(pathOf(step))} cannot be read (${errorText(error)})`;
    }
    for (const key of keys) {
      let item: unknown;
      try {
        item = (value as Record<string, unknown>)[key];
      } catch (error) {
        return `reading ${pointer([...pathOf(step), key])} threw (${errorText(error)})`;
      }
      stack.push({ value: item, depth: step.depth + 1, key, up: step });
    }
  }
  return undefined;
}
