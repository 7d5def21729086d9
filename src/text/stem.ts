/** Porter stemming with a cache, since the same words recur across thousands of tools. */

import { stemmer } from "stemmer";

const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;

/** Returns the Porter stem of a lowercase word; numbers and one- or two-letter words pass through. */
export function stem(word: string): string {
  if (word.length <= 2) return word;
  const code = word.charCodeAt(0);
  // numbers and words that do not start with an ASCII letter are left alone (Porter is English-only)
  if (code < 97 || code > 122) return word;
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  const result = stemmer(word);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(word, result);
  return result;
}
