/** Mapping Gemini call arguments back to the original tool's property names and enum values. */
import type { JsonValue } from "../../catalog/index.js";
import { hashBase36 } from "../names.js";
import { childPointer, isSchemaObject, isUnsafeKey } from "../schema/json-schema.js";

/** The text Gemini sees for an enum value; `restoreGeminiArguments` maps it back. */
export function enumText(value: JsonValue): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * What a Gemini conversion changed in argument space. Keys are argument paths built from the
 * names Gemini sees: JSON pointers where `*` stands for any array element (`/filter/*\/_meta`).
 */
export interface GeminiArgumentMapping {
  /** Argument path (Gemini name as last segment) → original property name. */
  renamed: Record<string, string>;
  /** Argument path → original enum values, whose `String()` forms Gemini saw. */
  values: Record<string, JsonValue[]>;
}

const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Whether Gemini accepts a property name: a letter or `_` first, then `[A-Za-z0-9_]`, at most 64. */
export function isGeminiPropertyName(name: string): boolean {
  return PROPERTY_NAME.test(name);
}

/** Gemini-legal names for an object's properties, unique within the object (original → new). */
export function geminiPropertyNames(names: readonly string[]): Map<string, string> {
  const result = new Map<string, string>();
  const taken = new Set(names.filter(isGeminiPropertyName));
  for (const name of names) {
    if (isGeminiPropertyName(name)) {
      result.set(name, name);
      continue;
    }
    let candidate = name.replace(/[^A-Za-z0-9_]/g, "_");
    if (!/^[A-Za-z_]/.test(candidate)) candidate = `_${candidate}`;
    if (candidate.length > 64 || taken.has(candidate)) {
      candidate = `${candidate.slice(0, 55)}_${hashBase36(name, 8)}`;
    }
    for (let round = 0; taken.has(candidate); round++) {
      candidate = `${candidate.slice(0, 55)}_${hashBase36(`${round}:${name}`, 8)}`;
    }
    taken.add(candidate);
    result.set(name, candidate);
  }
  return result;
}

/**
 * Turns the arguments of a Gemini function call back into the arguments the original tool
 * expects: renamed properties get their original names and stringified enum values their
 * original numbers, booleans or nulls. `__proto__`, `constructor` and `prototype` keys are
 * dropped, so the model cannot set the prototype of the arguments a hook or handler sees.
 */
export function restoreGeminiArguments(args: unknown, mapping: GeminiArgumentMapping): unknown {
  return restoreAt(args, "", mapping);
}

function restoreAt(value: unknown, path: string, mapping: GeminiArgumentMapping): unknown {
  const originals = Object.hasOwn(mapping.values, path) ? mapping.values[path] : undefined;
  if (originals && (typeof value === "string" || typeof value === "number")) {
    const match = originals.find((original) => enumText(original) === String(value));
    if (match !== undefined) return match;
  }
  if (Array.isArray(value))
    return value.map((item) => restoreAt(item, childPointer(path, "*"), mapping));
  if (!isSchemaObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const childPath = childPointer(path, key);
    const name = Object.hasOwn(mapping.renamed, childPath) ? mapping.renamed[childPath] : key;
    if (name === undefined || isUnsafeKey(key) || isUnsafeKey(name)) continue;
    result[name] = restoreAt(entry, childPath, mapping);
  }
  return result;
}
