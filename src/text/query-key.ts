/**
 * The key of a whole query, for usage learning's memory of recurring requests: its distinct
 * search tokens (stop words out, stemmed), sorted and joined by a space. Word order, repeats and
 * stop words do not change it ("list my repositories" and "repositories list" share one key);
 * a space never occurs inside a token, so a key never equals a single learned word.
 */

import { tokenize } from "./tokenize.js";

/** Distinct words a keyed query may have: a longer request is too specific to recur. */
export const MAX_KEY_WORDS = 12;

/** The key of `text`, or "" when it has fewer than two or more than `MAX_KEY_WORDS` distinct words. */
export function queryKey(text: string): string {
  const words = [...new Set(tokenize(text))];
  if (words.length < 2 || words.length > MAX_KEY_WORDS) return "";
  return words.sort().join(" ");
}

/** True when a learned entry is a query key rather than one word. */
export function isQueryKey(word: string): boolean {
  return word.includes(" ");
}
