/** Reading tool calls out of a model response that may be anything: lists, entries, JSON arguments. */
import { ToolsiftError } from "../errors.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps the entries of a list that are objects; anything else (null, text) carries no call. */
export function objectEntries<T>(list: unknown): T[] {
  return Array.isArray(list) ? (list.filter(isRecord) as T[]) : [];
}

/**
 * The list at `response[field]` of a model response, reduced to its object entries; throws
 * `invalid_option` naming the provider and the field when the response is not an object or
 * (unless `optional`) the field is not a list, so a wrong argument never surfaces as a TypeError.
 */
export function responseList<T>(
  response: unknown,
  field: string,
  provider: string,
  optional = false,
): T[] {
  const list = isRecord(response) ? response[field] : undefined;
  if (!isRecord(response) || (!Array.isArray(list) && !(optional && list === undefined))) {
    const got = response === null ? "null" : Array.isArray(response) ? "an array" : typeof response;
    const what = isRecord(response) ? `an object without a "${field}" list` : got;
    throw new ToolsiftError(
      "invalid_option",
      `Cannot read ${provider} tool calls: expected the response object with a "${field}" list, got ${what}. Pass the whole response the ${provider} SDK returned.`,
    );
  }
  return objectEntries<T>(list);
}

/** Parses JSON call arguments; invalid JSON is passed on as the raw string (execute reports it). */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
