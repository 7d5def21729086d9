/**
 * Keeps exact BPE counting linear on hostile text.
 *
 * gpt-tokenizer splits text into pre-tokenizer pieces, then merges each piece pair by pair; the
 * merge loop is quadratic in the piece's length, and a piece can be as long as the whole text
 * (64k `A`, 64k spaces, 100k `=`, 100k lone surrogates: seconds to minutes). So text is counted
 * in segments: cut first where a piece boundary is certain (the sum over segments is then the
 * exact count), and only inside a stretch of `MAX_UNBROKEN` bytes with no certain boundary is a
 * piece cut where it stands. Such a cut changes the count by about one token per cut, and only
 * text that has such stretches is affected: none of the 1,371 real catalog tools is (the test
 * compares the sums). Each BPE call then sees at most `MAX_UNBROKEN` bytes of one piece, so
 * counting costs O(length × MAX_UNBROKEN) at worst.
 */

import { safeCutIndex } from "../internal/index.js";

/** Longest stretch (UTF-8 bytes, 3 per non-ASCII unit) counted without a certain piece boundary. */
export const MAX_UNBROKEN = 256;

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isPrintable = (code: number) => code > 32 && code < 127;

/**
 * Whether the o200k and cl100k split patterns always end a piece between `before` and `after`.
 * Only ASCII is judged (anything else answers no): no piece runs from a digit into an ASCII
 * non-digit or from a printable non-digit into a digit (`\p{N}{1,3}` is the only digit
 * alternative and no prefix may be a digit); no piece runs from an ASCII letter into an ASCII
 * non-letter other than `'` (contractions); and no piece runs from printable punctuation into a
 * space or tab (only `\r`, `\n` and `/` may trail punctuation). Whitespace never ends a segment,
 * so the `\s+(?!\S)` and `\s+$` look-aheads see the same text as in the whole.
 */
export function isPieceBoundary(before: number, after: number): boolean {
  if (isDigit(after)) return isPrintable(before) && !isDigit(before);
  if (after >= 128) return false;
  if (isDigit(before)) return true;
  if (isLetter(before)) return !isLetter(after) && after !== 39;
  return isPrintable(before) && (after === 32 || after === 9);
}

/**
 * Where `text` must be cut so no segment holds more than `maxUnbroken` bytes without a certain
 * piece boundary; empty for ordinary text. Cuts never split a surrogate pair.
 */
export function forcedCuts(text: string, maxUnbroken: number = MAX_UNBROKEN): number[] {
  const cuts: number[] = [];
  if (text.length <= maxUnbroken) return cuts;
  let lastBreak = 0;
  // the merge loop works on UTF-8 bytes: a non-ASCII unit weighs 3 (a lone surrogate becomes
  // U+FFFD, 3 bytes), so a stretch holds at most `maxUnbroken` bytes
  let weight = text.charCodeAt(0) < 128 ? 1 : 3;
  let previous = text.charCodeAt(0);
  for (let index = 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isPieceBoundary(previous, code)) {
      lastBreak = index;
      weight = 0;
    } else if (weight >= maxUnbroken) {
      const cut = safeCutIndex(text, index);
      if (cut > lastBreak) {
        cuts.push(cut);
        lastBreak = cut;
        weight = cut < index ? 3 : 0; // a pair moved across the cut already counts
      }
    }
    weight += code < 128 ? 1 : 3;
    previous = code;
  }
  return cuts;
}

/**
 * Counts `text` with `countPart` over the segments `forcedCuts` gives, stopping early once the
 * total passes `limit` (then the returned number is above `limit`, not the full count).
 */
export function countBySegments(
  text: string,
  countPart: (part: string, limit: number) => number,
  limit = Number.POSITIVE_INFINITY,
): number {
  const cuts = forcedCuts(text);
  if (cuts.length === 0) return countPart(text, limit);
  let total = 0;
  let start = 0;
  for (const end of [...cuts, text.length]) {
    total += countPart(text.slice(start, end), limit - total);
    if (total > limit) return total;
    start = end;
  }
  return total;
}
