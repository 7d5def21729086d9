import { boundedEditDistance } from "../internal/index.js";

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
      const distance = boundedEditDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, max).map((item) => item.name);
}
