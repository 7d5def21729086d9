/** Small helpers for error messages: the closest known word to a misspelt one. */

import { boundedEditDistance } from "../internal/index.js";

/** The known words within a third of the word's length (at least 2 edits), closest first. */
export function closestWords(word: string, known: readonly string[], limit = 3): string[] {
  const threshold = Math.max(2, Math.floor(word.length / 3));
  return known
    .map((candidate) => ({
      candidate,
      distance: boundedEditDistance(word.toLowerCase(), candidate.toLowerCase(), threshold),
    }))
    .filter((entry) => entry.distance <= threshold)
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map((entry) => entry.candidate);
}

/** Formats `" Did you mean X?"`, or an empty string when nothing is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const close = closestWords(word, known, 1);
  return close.length > 0 ? ` Did you mean "${close[0]}"?` : "";
}
