function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

const SEPARATORS = /[_.:/-]+/;

/**
 * The closest names to an unknown one ("did you mean"), best first, at most `max` (default 3).
 *
 * A name that ends with the unknown one after a separator (`ask_codex` for `mcp__x__ask_codex`)
 * or the reverse ranks first; then edit distance within a third of the length, case-insensitive.
 */
export function suggestNames(unknown: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = unknown.toLowerCase().trim();
  if (wanted === "") return [];
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else if (
      lower.endsWith(wanted) &&
      SEPARATORS.test(lower.charAt(lower.length - wanted.length - 1))
    )
      score = 0.5;
    else if (
      wanted.endsWith(lower) &&
      SEPARATORS.test(wanted.charAt(wanted.length - lower.length - 1))
    )
      score = 0.5;
    else {
      const distance = editDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, max).map((item) => item.name);
}
