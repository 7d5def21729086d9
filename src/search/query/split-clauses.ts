/**
 * The clauses of a multi-part request ("Find the movie Titanic. Then list its reviews"): each
 * part asks for its own tool, and the whole request's ranking tends to give the top places to
 * the part with the most or rarest words. A clause ends at sentence punctuation or `;`, or
 * before a word that starts the next step (`then`, `afterwards`, `after that`, `finally`,
 * `lastly`). A keyword query has neither, so it is never split.
 */

import { STOP_WORDS, splitIdentifier } from "../../text/index.js";
import { valueWords } from "./query-values.js";

/** A request split into clauses: its words (values rewritten) and the clause of each. */
export interface QueryClauses {
  /** The words as `rewriteValues` gives them. */
  words: string[];
  /** The clause (0, 1, …) of each word of `words`. */
  clause: number[];
  /** How many clauses there are (at least 2). */
  count: number;
}

/** At most this many clauses: later parts join the last (each clause is a scratch row per tool). */
export const MAX_CLAUSES = 8;

/** A word that ends a sentence or a `;` part: `list.`, `reviews?`, `"cat."`. */
const SENTENCE_END = /[\p{L}\p{N})\]}'"][.!?;]+["')\]}]*$/u;
/**
 * Abbreviations end no sentence: inner dots (`e.g.`, `U.S.`), a title-case word of up to three
 * letters (`Mr.`, `Dr.`, `St.`), a single letter (`X.`, `v.`) and `vs.`.
 */
const ABBREVIATION = /^\p{L}\.\p{L}|^\p{Lu}\p{Ll}{0,2}\.$|^\p{L}\.$|^vs?\.$/u;
/** Words that start the next step of a request. */
const STEP_WORDS = new Set(["then", "afterwards", "afterward", "finally", "lastly"]);
/** `after` starts a step when followed by one of these (`after that`, `after this`). */
const AFTER_WHAT = new Set(["that", "this", "which"]);

function bare(word: string): string {
  return word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/** True when a clause starts at `words[index]` (the word before it ended none). */
function startsStep(words: readonly string[], index: number): boolean {
  const word = bare(words[index] as string);
  if (STEP_WORDS.has(word)) return true;
  return word === "after" && AFTER_WHAT.has(bare(words[index + 1] ?? ""));
}

function endsSentence(word: string): boolean {
  return SENTENCE_END.test(word) && !ABBREVIATION.test(word) && valueWords(word) === undefined;
}

/** The raw clause of each word: a new one after a sentence end or at a step word. */
function rawClauses(words: readonly string[]): number[] {
  const clause: number[] = [];
  let current = 0;
  let open = false;
  for (let index = 0; index < words.length; index += 1) {
    if (open && startsStep(words, index)) current += 1;
    clause.push(current);
    open = true;
    if (endsSentence(words[index] as string)) {
      current += 1;
      open = false;
    }
  }
  return clause;
}

/** Distinct content words (no stop words) of each raw clause. */
function contentCounts(words: readonly string[], clause: readonly number[]): number[] {
  const sets: Set<string>[] = [];
  words.forEach((word, index) => {
    const at = clause[index] as number;
    sets[at] ??= new Set();
    for (const token of splitIdentifier(word)) {
      if (!STOP_WORDS.has(token)) sets[at].add(token);
    }
  });
  return Array.from(sets, (set) => set?.size ?? 0);
}

/**
 * Splits a request into clauses of at least `minWords` content words each (a shorter part joins
 * the clause after it, the last part the one before it), or returns undefined when fewer than
 * two such clauses remain: the request is then scored as one.
 */
export function splitClauses(words: readonly string[], minWords: number): QueryClauses | undefined {
  if (words.length < 2 * minWords) return undefined;
  const raw = rawClauses(words);
  const counts = contentCounts(words, raw);
  // renumber: a clause too short to stand alone joins its neighbour
  const mapped: number[] = [];
  let count = 0;
  let pending = 0;
  for (let at = 0; at < counts.length; at += 1) {
    pending += counts[at] ?? 0;
    mapped.push(count);
    if (pending >= minWords) {
      count += 1;
      pending = 0;
    }
  }
  // a short tail (or one of stop words only) joins the last full clause
  if (count > 0) {
    for (let at = counts.length - 1; at >= 0 && mapped[at] === count; at -= 1) {
      mapped[at] = count - 1;
    }
  }
  if (count < 2) return undefined;
  const out: QueryClauses = { words: [], clause: [], count: Math.min(count, MAX_CLAUSES) };
  words.forEach((word, index) => {
    const at = Math.min(mapped[raw[index] as number] as number, MAX_CLAUSES - 1);
    for (const part of valueWords(word) ?? [word]) {
      out.words.push(part);
      out.clause.push(at);
    }
  });
  return out;
}
