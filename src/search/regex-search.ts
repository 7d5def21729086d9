/** Regex mode: a linear-time engine (re2js) so a model-written pattern can never hang the process. */

import { RE2JS } from "re2js";
import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";

/** Longest accepted pattern, in characters. */
export const MAX_REGEX_LENGTH = 200;
/** Longest text scanned per tool field, in characters. */
export const MAX_REGEX_SCAN = 2_000;

/** Compiles a pattern case-insensitively; throws `invalid_regex` naming the problem. */
export function compileRegex(pattern: string): RE2JS {
  if (pattern.length === 0) {
    throw new ToolsiftError("invalid_regex", "Empty regex: write a pattern between the slashes.");
  }
  if (pattern.length > MAX_REGEX_LENGTH) {
    throw new ToolsiftError(
      "invalid_regex",
      `Regex is ${pattern.length} characters; the limit is ${MAX_REGEX_LENGTH}. Use a shorter pattern.`,
    );
  }
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ToolsiftError(
      "invalid_regex",
      `Invalid regex /${pattern}/: ${detail}. Fix the pattern (RE2 syntax: no backreferences or lookaround).`,
      { cause: error },
    );
  }
}

const FIELD_SCORES: readonly [keyof ToolDefinition, number][] = [
  ["name", 4],
  ["title", 2],
  ["server", 1.5],
  ["description", 1],
];

/** Scores a tool against a compiled pattern: name 4, title 2, server 1.5, description 1; 0 = no match. */
export function regexScore(regex: RE2JS, tool: ToolDefinition): number {
  let score = 0;
  for (const [key, weight] of FIELD_SCORES) {
    const value = tool[key];
    if (typeof value !== "string" || value.length === 0) continue;
    const text = value.length > MAX_REGEX_SCAN ? value.slice(0, MAX_REGEX_SCAN) : value;
    if (regex.test(text)) score += weight;
  }
  return score;
}
