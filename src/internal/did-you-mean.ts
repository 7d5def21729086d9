/**
 * "Did you mean": the known names closest to an unknown one. Every error message that offers a
 * correction (unknown tool, CLI flag, config key, profile, selector, policy field) and the search
 * index's no-match suggestions take their rules from here.
 */
import { boundedEditDistance } from "./edit-distance.js";
import { bagDistance, setBagProbe } from "./nearest-names.js";

/** Characters after which a name's tail counts as a name of its own (`mcp__x__ask` → `ask`). */
const SEPARATOR_CODES = new Set([..."_.:/-"].map((char) => char.charCodeAt(0)));

/** Edits allowed between an unknown name and a suggestion: a third of its length, at least 2. */
export function nameEditBound(length: number): number {
  return Math.max(2, Math.floor(length / 3));
}

/**
 * Search's no-match suggestions compare a query with whole names (up to this many tools, since
 * each costs a distance table) within `queryEditBound`, and each query word with the name words
 * within `wordEditBound`; a word match ranks `WORD_MATCH_PENALTY` behind a whole-name match at
 * the same distance, and a name word the query word begins counts as `PREFIX_DISTANCE` edits.
 */
export const WHOLE_NAME_LIMIT = 5_000;
export const WORD_MATCH_PENALTY = 0.5;
export const PREFIX_DISTANCE = 1;
/** Most name words that start with a query word considered per query word (alphabetically first). */
export const PREFIX_WORDS = 50;

/** Edits allowed between a whole search query and a tool name: a third, rounded up, at least 2. */
export function queryEditBound(length: number): number {
  return Math.max(2, Math.ceil(length / 3));
}

/** Edits allowed between a query word and a name word: a third, rounded down, at least 1. */
export function wordEditBound(length: number): number {
  return Math.max(1, Math.floor(length / 3));
}

/** Start of the part after the last separator (the whole text when it has none). */
export function lastSegmentStart(text: string): number {
  for (let index = text.length - 1; index >= 0; index -= 1) {
    if (SEPARATOR_CODES.has(text.charCodeAt(index))) return index + 1;
  }
  return 0;
}

/** `long` ends with `short` right after a separator (`mcp__x__ask` and `ask`). */
export function endsAfterSeparator(long: string, short: string): boolean {
  return (
    long.length > short.length &&
    SEPARATOR_CODES.has(long.charCodeAt(long.length - short.length - 1)) &&
    long.endsWith(short)
  );
}

/** What a caller may change about `suggestNames`. */
export interface SuggestOptions {
  /** At most this many names (default 3). */
  max?: number;
  /**
   * Whether a name ending with the unknown one after a separator (`mcp__x__ask_codex` for
   * `ask_codex`), or the reverse, ranks right after an exact match (default true). Off for plain
   * words (option keys, profile names), where a separator means nothing.
   */
  suffixes?: boolean;
}

// the suffix test needs a separator right before it: checked on the raw name before lowercasing
function suffixPossible(name: string, wanted: string): boolean {
  return (
    (name.length > wanted.length &&
      SEPARATOR_CODES.has(name.charCodeAt(name.length - wanted.length - 1))) ||
    (name.length < wanted.length &&
      SEPARATOR_CODES.has(wanted.charCodeAt(wanted.length - name.length - 1)))
  );
}

/**
 * The closest names to an unknown one, best first (then by name, by code unit), at most `max`.
 *
 * An equal name (case-insensitive) ranks first; then, with `suffixes`, a name that ends with the
 * unknown one after a separator or the reverse; then names within `nameEditBound` edits. Names
 * too far apart in length or letters are skipped before any distance table is built, so a scan of
 * 100k names stays cheap (give `NameIndex.candidates` for repeated lookups in a large set).
 */
export function suggestNames(
  unknown: string,
  candidates: Iterable<string>,
  options: SuggestOptions = {},
): string[] {
  const wanted = unknown.toLowerCase().trim();
  if (wanted === "") return [];
  const suffixes = options.suffixes !== false;
  const limit = nameEditBound(wanted.length);
  setBagProbe(wanted);
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const near = Math.abs(name.length - wanted.length) <= limit;
    const suffix = suffixes && suffixPossible(name, wanted);
    if (!near && !suffix) continue;
    const lower = name.toLowerCase();
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else if (suffix && (endsAfterSeparator(lower, wanted) || endsAfterSeparator(wanted, lower)))
      score = 0.5;
    else if (near && bagDistance(lower, 0, lower.length) <= limit) {
      const distance = boundedEditDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, options.max ?? 3).map((item) => item.name);
}

/** `' Did you mean "X"?'` for the closest known word, or an empty string when none is close. */
export function didYouMean(word: string, known: readonly string[]): string {
  const [close] = suggestNames(word, known, { max: 1, suffixes: false });
  return close === undefined ? "" : ` Did you mean "${close}"?`;
}
