/** Reads config documents: typed fields with every problem collected under its path, and `${VAR}`
 * expanded in every string (shared by the gateway config and its `embedder` block). */
import { suggestNames } from "../../internal/index.js";
import { expandVariables, type VariableContext } from "./expand-variables.js";

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
export const kind = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;

/** Collects problems and reads typed fields, expanding variables in every string. */
export function createReader(context: VariableContext) {
  const problems: string[] = [];
  const expand = (path: string, text: string) => {
    const { value, problems: found } = expandVariables(text, context);
    for (const problem of found) problems.push(`${path}: ${problem}`);
    return value;
  };
  const string = (path: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === "string") return expand(path, value);
    problems.push(`${path}: expected a string, got ${kind(value)}.`);
    return undefined;
  };
  const strings = (path: string, value: unknown): string[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) {
      problems.push(`${path}: expected an array of strings, got ${kind(value)}.`);
      return undefined;
    }
    return value.map((item, index) => string(`${path}[${index}]`, item) ?? "");
  };
  const record = (path: string, value: unknown): Record<string, string> | undefined => {
    if (value === undefined) return undefined;
    if (!isObject(value)) {
      problems.push(`${path}: expected an object of strings, got ${kind(value)}.`);
      return undefined;
    }
    const result: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      const text = string(`${path}.${key}`, item);
      if (text !== undefined) result[key] = text;
    }
    return result;
  };
  const boolean = (path: string, value: unknown): boolean | undefined => {
    if (value === undefined || typeof value === "boolean") return value;
    problems.push(`${path}: expected true or false, got ${kind(value)}.`);
    return undefined;
  };
  const positive = (path: string, value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
    problems.push(`${path}: expected a positive whole number, got ${JSON.stringify(value)}.`);
    return undefined;
  };
  const oneOf = <T extends string>(path: string, value: unknown, allowed: readonly T[]) => {
    if (value === undefined) return undefined;
    if (typeof value === "string" && (allowed as readonly string[]).includes(value))
      return value as T;
    problems.push(
      `${path}: expected one of ${allowed.map((item) => `"${item}"`).join(", ")}, got ${JSON.stringify(value)}.`,
    );
    return undefined;
  };
  return { problems, string, strings, record, boolean, positive, oneOf };
}

export type Reader = ReturnType<typeof createReader>;

/** `{ key: value }`, or `{}` when the value is absent (for exactOptionalPropertyTypes). */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Reports a key close to a known one as the typo it is likely to be (`comand`). Other unknown
 * keys pass: a config shared with Claude, Cursor or VS Code carries those clients' own keys. */
export function checkKeys(read: Reader, path: string, raw: Json, known: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    const [closest] = suggestNames(key, known, { max: 1 });
    if (closest) read.problems.push(`${path}${key}: unknown key; did you mean "${closest}"?`);
  }
}
