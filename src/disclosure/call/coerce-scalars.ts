import type { ErrorObject } from "ajv";
import { safeHead } from "../../internal/index.js";

const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function decodePointer(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

// the digits of a decimal numeral without sign, point, exponent, or leading/trailing zeros
function significantDigits(text: string): string {
  const mantissa = text
    .trim()
    .replace(/^-/, "")
    .replace(/[eE].*$/, "");
  return mantissa.replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
}

/**
 * The number a numeral holds, only when reading it changes no value: finite (`"1e999"` is not),
 * a whole numeral within the safe-integer range (`"9007199254740993"` would become …992), and
 * no more significant digits than the double keeps.
 */
function exactNumber(text: string): number | undefined {
  const number = Number(text);
  if (!Number.isFinite(number)) return undefined;
  if (/^\s*-?\d+\s*$/.test(text) && !Number.isSafeInteger(number)) return undefined;
  const digits = significantDigits(text);
  // 15 significant digits always survive a double; beyond that, only if printing gives them back
  if (digits.length > 15 && significantDigits(String(number)) !== digits) return undefined;
  return number;
}

function convert(
  value: string,
  wanted: readonly string[],
): { ok: true; value: unknown } | { ok: false } {
  if ((wanted.includes("number") || wanted.includes("integer")) && NUMBER.test(value)) {
    const number = exactNumber(value);
    if (number !== undefined && (wanted.includes("number") || Number.isInteger(number))) {
      return { ok: true, value: number };
    }
  }
  if (wanted.includes("boolean") && (value === "true" || value === "false")) {
    return { ok: true, value: value === "true" };
  }
  if (wanted.includes("null") && value === "null") return { ok: true, value: null };
  if (wanted.includes("array") || wanted.includes("object")) {
    try {
      const parsed: unknown = JSON.parse(value);
      const kind = Array.isArray(parsed) ? "array" : parsed === null ? "null" : typeof parsed;
      if (wanted.includes(kind)) return { ok: true, value: parsed };
    } catch {
      // not JSON: leave it for the error message
    }
  }
  return { ok: false };
}

/** Whether `{}` passes a schema: an object with no required fields and no minimum size. */
function acceptsEmptyObject(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const { required, minProperties } = schema as { required?: unknown; minProperties?: unknown };
  return (
    (!Array.isArray(required) || required.length === 0) &&
    !(typeof minProperties === "number" && minProperties > 0)
  );
}

/**
 * Converts string values that Ajv reported as the wrong type into the type the schema wants.
 *
 * Chosen over Ajv's `coerceTypes`, which also converts silently in the other direction (numbers
 * to strings, `null` to `""`) and mutates the input; here only strings convert, only when the
 * text is exactly a value of the wanted type, on a copy, and each change is reported. Small
 * models send `""` or `null` for an optional object parameter; where `{}` passes (no required
 * fields), that becomes `{}`.
 */
export function coerceScalars(
  args: { [key: string]: unknown },
  errors: readonly ErrorObject[],
): { value: { [key: string]: unknown }; repairs: string[] } | undefined {
  const copy = structuredClone(args);
  const repairs: string[] = [];
  for (const error of errors) {
    if (error.keyword !== "type") continue;
    const raw = (error.params as { type?: unknown }).type;
    const wanted = (Array.isArray(raw) ? raw : String(raw).split(",")).map(String);
    const path = decodePointer(error.instancePath);
    const key = path.pop();
    if (key === undefined) continue;
    let parent: unknown = copy;
    for (const part of path) parent = (parent as Record<string, unknown> | undefined)?.[part];
    if (typeof parent !== "object" || parent === null) continue;
    const holder = parent as Record<string, unknown>;
    const value = holder[key];
    if (
      (value === "" || value === null) &&
      wanted.includes("object") &&
      acceptsEmptyObject(error.parentSchema)
    ) {
      holder[key] = {};
      repairs.push(`${error.instancePath}: ${JSON.stringify(value)} read as {} (an empty object)`);
      continue;
    }
    if (typeof value !== "string") continue;
    const converted = convert(value, wanted);
    if (!converted.ok) continue;
    holder[key] = converted.value;
    repairs.push(
      `${error.instancePath}: string ${safeHead(JSON.stringify(value), 40)} read as ${wanted.join("|")}`,
    );
  }
  return repairs.length > 0 ? { value: copy, repairs } : undefined;
}
