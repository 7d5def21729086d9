/**
 * Regex mode: a linear-time engine (re2js) so a model-written pattern can never hang the
 * process. Linear is not enough on its own: `.{0,1000}` five times compiles to 10,000
 * instructions, and matching costs up to instructions × characters, so a 48-character pattern
 * took 45 s over 1,371 tools. Patterns are therefore bounded before and after compiling, and
 * each query gets a work budget (instructions × characters scanned).
 */

import type { RE2JS } from "re2js";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { errorText, syncRequire } from "../../internal/index.js";

// the engine is 260 KB of JavaScript that only regex queries need: it loads on the first one
let engine: typeof RE2JS | undefined;
// where there is no synchronous require (browsers), it starts loading now, as an import would
if (!syncRequire(import.meta.url)) {
  import("re2js").then(
    (module) => {
      engine ??= module.RE2JS;
    },
    () => undefined,
  );
}

function regexEngine(): typeof RE2JS {
  if (engine) return engine;
  const load = syncRequire(import.meta.url);
  if (!load) {
    throw new ToolsiftError(
      "internal",
      "The regex engine (re2js) is still loading in this runtime; run the regex search again in a moment.",
    );
  }
  engine = (load("re2js") as { RE2JS: typeof RE2JS }).RE2JS;
  return engine;
}

/** Longest accepted pattern, in characters. */
export const MAX_REGEX_LENGTH = 200;
/** Longest text scanned per tool field, in characters. */
export const MAX_REGEX_SCAN = 2_000;
/** Largest sum of counted repetitions (`{n,m}` counts `max(n, m)`), checked before compiling. */
export const MAX_REGEX_REPEAT = 250;
/** Largest compiled program, in re2 instructions (`.{0,250}` is about 500). */
export const MAX_REGEX_PROGRAM = 600;
/** Work one query may do: program instructions × characters scanned, summed over the tools
 * (about 0.3–1 s at the slowest measured rate; ordinary patterns over 100k tools use a third). */
export const MAX_REGEX_WORK = 1_000_000_000;

// the work left for each compiled pattern; a pattern is compiled once per query
const budgets = new WeakMap<RE2JS, { left: number; size: number; pattern: string }>();

// counts in `{n}`, `{n,}` and `{n,m}` outside classes and escapes; `{n,}` counts n + 1
function repetitionTotal(pattern: string): number {
  let total = 0;
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === "\\") {
      // \p{Greek} and \x{41} hold braces that are not counts
      const next = pattern[index + 1];
      index += 1;
      if ((next === "p" || next === "P" || next === "x") && pattern[index + 1] === "{") {
        index = Math.max(index, pattern.indexOf("}", index));
      }
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
      if (pattern[index + 1] === "]") index += 1;
    } else if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
      if (match) {
        const low = Number(match[1]);
        const high = match[3] ? Number(match[3]) : match[2] ? low + 1 : low;
        total += Math.max(low, high);
      }
    }
  }
  return total;
}

function tooCostly(pattern: string, what: string, limit: string): ToolsiftError {
  return new ToolsiftError(
    "invalid_regex",
    `Regex /${pattern}/ is too costly: ${what}; the limit is ${limit}. Use smaller repetition counts (.* instead of .{0,1000}), narrow with server:NAME, or search by keywords.`,
  );
}

/** Compiles a pattern case-insensitively; throws `invalid_regex` naming the problem or limit. */
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
  const repeats = repetitionTotal(pattern);
  if (repeats > MAX_REGEX_REPEAT) {
    throw tooCostly(
      pattern,
      `its repetition counts add up to ${repeats}`,
      `${MAX_REGEX_REPEAT} (MAX_REGEX_REPEAT)`,
    );
  }
  const RE2 = regexEngine();
  let regex: RE2JS;
  try {
    regex = RE2.compile(pattern, RE2.CASE_INSENSITIVE);
  } catch (error) {
    const detail = errorText(error);
    throw new ToolsiftError(
      "invalid_regex",
      `Invalid regex /${pattern}/: ${detail}. Fix the pattern (RE2 syntax: no backreferences or lookaround).`,
      { cause: error },
    );
  }
  const size = regex.programSize();
  if (size > MAX_REGEX_PROGRAM) {
    throw tooCostly(
      pattern,
      `it compiles to ${size} instructions`,
      `${MAX_REGEX_PROGRAM} (MAX_REGEX_PROGRAM)`,
    );
  }
  budgets.set(regex, { left: MAX_REGEX_WORK, size, pattern });
  return regex;
}

/** Tests one text, charging the pattern's work budget; throws `invalid_regex` once it runs out. */
export function testWithinBudget(regex: RE2JS, value: string): boolean {
  const text = value.length > MAX_REGEX_SCAN ? value.slice(0, MAX_REGEX_SCAN) : value;
  const budget = budgets.get(regex);
  if (budget) {
    budget.left -= budget.size * (text.length + 1);
    if (budget.left < 0) {
      throw tooCostly(
        budget.pattern,
        `scanning this catalog with it takes more than ${MAX_REGEX_WORK.toLocaleString("en")} steps (instructions × characters)`,
        `${MAX_REGEX_WORK.toLocaleString("en")} (MAX_REGEX_WORK)`,
      );
    }
  }
  return regex.test(text);
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
    if (testWithinBudget(regex, value)) score += weight;
  }
  return score;
}
