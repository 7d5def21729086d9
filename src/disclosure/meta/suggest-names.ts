import { boundedEditDistance } from "../../internal/index.js";

const SEPARATORS = /[_.:/-]+/;

// letter counts of the wanted name, and a scratch copy per candidate; reused between calls
const wantedCounts = new Int32Array(128);
const scratch = new Int32Array(128);

/**
 * A lower bound on the edit distance between `wanted` (counted into `wantedCounts`) and the
 * lowercased `name`: characters one has beyond the other (one edit fixes at most one on each
 * side). Scanning 100k names, this skips nearly every edit-distance table.
 */
function bagDistance(name: string, wantedLength: number): number {
  scratch.set(wantedCounts);
  let matched = 0;
  for (let index = 0; index < name.length; index += 1) {
    const slot = name.charCodeAt(index) & 127;
    if ((scratch[slot] as number) > 0) {
      scratch[slot] = (scratch[slot] as number) - 1;
      matched += 1;
    }
  }
  return Math.max(name.length - matched, wantedLength - matched);
}

function endsAfterSeparator(long: string, short: string): boolean {
  return (
    long.length > short.length &&
    SEPARATORS.test(long.charAt(long.length - short.length - 1)) &&
    long.endsWith(short)
  );
}

/**
 * The closest names to an unknown one ("did you mean"), best first, at most `max` (default 3).
 *
 * A name that ends with the unknown one after a separator (`ask_codex` for `mcp__x__ask_codex`)
 * or the reverse ranks first; then edit distance within a third of the length, case-insensitive.
 * Names too far apart in length or letters are skipped before any distance table is built.
 */
export function suggestNames(unknown: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = unknown.toLowerCase().trim();
  if (wanted === "") return [];
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  wantedCounts.fill(0);
  for (let index = 0; index < wanted.length; index += 1) {
    const slot = wanted.charCodeAt(index) & 127;
    wantedCounts[slot] = (wantedCounts[slot] as number) + 1;
  }
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const near = Math.abs(name.length - wanted.length) <= limit;
    // a suffix needs a separator right before it: checked on the raw name before lowercasing
    const suffixPossible =
      (name.length > wanted.length &&
        SEPARATORS.test(name.charAt(name.length - wanted.length - 1))) ||
      (name.length < wanted.length &&
        SEPARATORS.test(wanted.charAt(wanted.length - name.length - 1)));
    if (!near && !suffixPossible) continue;
    const lower = name.toLowerCase();
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else if (endsAfterSeparator(lower, wanted) || endsAfterSeparator(wanted, lower)) score = 0.5;
    else if (near && bagDistance(lower, wanted.length) <= limit) {
      const distance = boundedEditDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, max).map((item) => item.name);
}
