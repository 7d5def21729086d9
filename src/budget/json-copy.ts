/**
 * A JSON copy of any value, made without throwing: what `JSON.stringify` would produce where it
 * can, and a visible marker with a note where it cannot (a `toJSON` or getter that throws, a
 * cycle, a BigInt, nesting deeper than `MAX_JSON_DEPTH`). Keys such as `"__proto__"` stay data.
 */

import type { JsonValue } from "../catalog/index.js";
import { errorText } from "../internal/index.js";

/** Levels kept when a value is copied; deeper parts become a marker (the stack stays small). */
export const MAX_JSON_DEPTH = 256;

/** The copy and one note per place that could not be copied as it was. */
export interface JsonCopy {
  /** Undefined where `JSON.stringify` gives nothing (undefined, a function, a symbol). */
  value: JsonValue | undefined;
  notes: string[];
}

/** Sets `key` as an own enumerable property, even `"__proto__"` (plain assignment would set the prototype). */
export function setKey(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

function describe(error: unknown): string {
  try {
    return errorText(error);
  } catch {
    return "an error that cannot be shown";
  }
}

/** JSONPath-style path of a child: `$.name`, `$[3]`, `$["odd key"]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Copies `input` as JSON would, never throwing; see the file comment. */
export function jsonCopy(input: unknown, maxDepth: number = MAX_JSON_DEPTH): JsonCopy {
  const notes: string[] = [];
  const ancestors = new Set<object>();
  const copy = (
    value: unknown,
    key: string,
    depth: number,
    path: string,
  ): JsonValue | undefined => {
    let current = value;
    try {
      const toJSON =
        current !== null && typeof current === "object"
          ? (current as { toJSON?: unknown }).toJSON
          : undefined;
      if (typeof toJSON === "function") current = toJSON.call(current, key);
    } catch (error) {
      notes.push(`${path}: toJSON threw (${describe(error)}); replaced by a marker`);
      return `[toJSON threw: ${describe(error)}]`;
    }
    if (typeof current === "bigint") return current.toString();
    if (typeof current === "number") return Number.isFinite(current) ? current : null;
    if (typeof current === "string" || typeof current === "boolean" || current === null) {
      return current;
    }
    if (typeof current !== "object") return undefined; // undefined, functions, symbols
    if (ancestors.has(current)) return "[Circular]";
    if (depth >= maxDepth) {
      notes.push(`${path}: nested deeper than ${maxDepth} levels; the rest replaced by a marker`);
      return `[… nested deeper than ${maxDepth} levels …]`;
    }
    ancestors.add(current);
    try {
      if (Array.isArray(current)) {
        const items: JsonValue[] = [];
        for (let index = 0; index < current.length; index++) {
          const item = read(current, index, path);
          items.push(copy(item, String(index), depth + 1, childPath(path, index)) ?? null);
        }
        return items;
      }
      const output: { [key: string]: JsonValue } = {};
      for (const name of Object.keys(current)) {
        const item = copy(read(current, name, path), name, depth + 1, childPath(path, name));
        if (item !== undefined) setKey(output, name, item);
      }
      return output;
    } catch (error) {
      notes.push(`${path}: could not be read (${describe(error)}); replaced by a marker`);
      return `[unreadable: ${describe(error)}]`;
    } finally {
      ancestors.delete(current);
    }
  };
  const read = (from: object, key: string | number, path: string): unknown => {
    try {
      return (from as { [key: string]: unknown })[key];
    } catch (error) {
      notes.push(
        `${childPath(path, key)}: getter threw (${describe(error)}); replaced by a marker`,
      );
      return `[getter threw: ${describe(error)}]`;
    }
  };
  return { value: copy(input, "", 0, "$"), notes };
}
