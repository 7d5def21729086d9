/** Small helpers for error messages: the closest known word to a misspelt one. */

/** Levenshtein distance between two strings (case-insensitive). */
export function editDistance(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(
        Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known words within a third of the word's length (at least 2 edits), closest first. */
export function closestWords(word: string, known: readonly string[], limit = 3): string[] {
  const threshold = Math.max(2, Math.floor(word.length / 3));
  return known
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
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
