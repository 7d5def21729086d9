/** Cuts plain text to a token budget from the head, the tail or both ends, with a visible marker. */

import { safeCutIndex, safeSlice } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { countAtMost, upperBound } from "../tokens/index.js";

/** Which part of a text survives a cut. */
export type TextAnchor = "head" | "tail" | "head-tail";

/** The outcome of cutting a text. */
export interface TextCut {
  text: string;
  truncated: boolean;
  /** Tokens of `text`; exact unless an uncut long text (then `originalExact` is false). */
  tokens: number;
  /** Tokens of the input; exact when `originalExact`, otherwise an estimate from a sample. */
  originalTokens: number;
  originalExact: boolean;
  /** Tokens left out (estimated when the original is). */
  omittedTokens: number;
}

/** Inputs longer than this (UTF-16 units) get an estimated original count so a cut stays cheap. */
export const EXACT_COUNT_LIMIT = 16_384;
const SAMPLE_LENGTH = 4_096;
/** Past this many units a text's size is estimated from samples, not from a full bound pass. */
const SAMPLE_ONLY = 1_000_000;

/**
 * Whether `text` fits in `limit` tokens. "Fits" is only ever claimed from the proven upper bound
 * or an exact count; "does not fit" may also come from an exact count of a prefix (a wrong "no"
 * only costs an unneeded cut, which is still verified against the budget).
 */
export function fitsTokens(
  text: string,
  limit: number,
  counter: TokenCounter,
  bound: number | undefined = boundUnlessOver(text, limit, counter),
): boolean {
  if (provablyOver(text, limit, counter)) return false;
  if (bound !== undefined && bound <= limit) return true;
  const prefixLength = (limit + 16) * 6;
  if (text.length > prefixLength * 1.5 && counter.count(text.slice(0, prefixLength)) > limit + 4) {
    return false;
  }
  return countNear(text, limit, counter) <= limit;
}

/** Exact count of a text that should be near `limit` tokens, with an early exit when it is far over. */
export function countNear(text: string, limit: number, counter: TokenCounter): number {
  return text.length <= limit * 8 ? counter.count(text) : countAtMost(text, limit, counter);
}

/**
 * Whether `text` certainly holds more than `limit` tokens, judged from its length alone: no token
 * covers more than `counter.maxTokenLength` units. This is what keeps a 50 MB result from being
 * read in full: it is cut first and only the kept part is counted.
 */
export function provablyOver(text: string, limit: number, counter: TokenCounter): boolean {
  return counter.maxTokenLength !== undefined && text.length > limit * counter.maxTokenLength;
}

/** The counter's bound of `text`, skipped (undefined) when the length alone proves it is over `limit`. */
export function boundUnlessOver(
  text: string,
  limit: number,
  counter: TokenCounter,
): number | undefined {
  return provablyOver(text, limit, counter) ? undefined : counter.bound?.(text);
}

/**
 * Token count of a text: exact up to EXACT_COUNT_LIMIT characters, else its upper bound scaled
 * by the real/bound ratio of a 4 kB sample. `ratio` is real tokens per bound token. Without a
 * bound a long text is estimated from its length and samples of its start, middle and end (a
 * counter without `bound` is counted exactly, as it offers nothing cheaper).
 */
export function measureTokens(
  text: string,
  counter: TokenCounter,
  bound: number | undefined = text.length > SAMPLE_ONLY ? undefined : counter.bound?.(text),
): { tokens: number; exact: boolean; ratio: number } {
  if (text.length <= EXACT_COUNT_LIMIT || counter.bound === undefined) {
    const tokens = counter.count(text);
    return { tokens, exact: true, ratio: bound ? tokens / Math.max(1, bound) : 1 };
  }
  if (bound === undefined) return sampledTokens(text, counter);
  const sample = safeSlice(text, 0, SAMPLE_LENGTH);
  const ratio = counter.count(sample) / Math.max(1, upperBound(sample, counter));
  return { tokens: Math.round(bound * ratio), exact: false, ratio };
}

/** Estimate of a long text's tokens from three samples, without reading the rest. */
function sampledTokens(text: string, counter: TokenCounter) {
  let tokens = 0;
  let bounds = 0;
  let chars = 0;
  const middle = Math.floor(text.length / 2 - SAMPLE_LENGTH / 2);
  for (const start of [0, middle, text.length - SAMPLE_LENGTH]) {
    const sample = safeSlice(text, start, start + SAMPLE_LENGTH);
    tokens += counter.count(sample);
    bounds += upperBound(sample, counter);
    chars += sample.length;
  }
  return {
    tokens: Math.round((text.length * tokens) / Math.max(1, chars)),
    exact: false,
    ratio: tokens / Math.max(1, bounds),
  };
}

/**
 * Longest n (within ~3 %) such that `piece(n)` fits in `limit`. Starts at `guess` (default four
 * characters per token), steps by 12.5 % until the answer is bracketed, then bisects.
 */
export function longestFitting(
  max: number,
  limit: number,
  piece: (n: number) => string,
  counter: TokenCounter,
  guess: number = limit * 4,
): number {
  if (limit <= 0 || max <= 0) return 0;
  let low = 0;
  let high = max + 1;
  let probe = Math.max(1, Math.min(max, Math.floor(guess)));
  if (fitsTokens(piece(probe), limit, counter)) {
    low = probe;
    for (let step = 0.125; low < max; step *= 2) {
      probe = Math.min(max, Math.ceil(low * (1 + step)));
      if (!fitsTokens(piece(probe), limit, counter)) {
        high = probe;
        break;
      }
      low = probe;
    }
    if (low === max) return max;
  } else {
    high = probe;
    for (let step = 0.125; high > 1; step = Math.min(0.5, step * 2)) {
      probe = Math.floor(high * (1 - step));
      if (fitsTokens(piece(probe), limit, counter)) {
        low = probe;
        break;
      }
      high = probe;
    }
  }
  while (high - low > Math.max(4, low >> 5)) {
    const middle = (low + high) >> 1;
    if (fitsTokens(piece(middle), limit, counter)) low = middle;
    else high = middle;
  }
  return low;
}

/** The omission marker placed where text was cut. */
export function omissionMarker(omitted: number, exact: boolean): string {
  return `[… ${exact ? "" : "about "}${omitted} tokens omitted …]`;
}

const TINY_MARKERS = ["[… truncated …]", "[…]", "…"];

/** Cuts `text` to at most `maxTokens` tokens, keeping the anchored part and a marker. */
export function truncateText(
  text: string,
  maxTokens: number,
  anchor: TextAnchor,
  counter: TokenCounter,
): TextCut {
  const bound = boundUnlessOver(text, maxTokens, counter);
  if (fitsTokens(text, maxTokens, counter, bound)) {
    // a long text proven to fit by the bound is not counted in full (that is what keeps
    // budgeting a 100 kB result cheap); its count is then the sample estimate, capped by the budget
    const measured = measureTokens(text, counter, bound);
    const tokens = Math.min(measured.tokens, maxTokens);
    return {
      text,
      truncated: false,
      tokens,
      originalTokens: tokens,
      originalExact: measured.exact,
      omittedTokens: 0,
    };
  }
  const original = measureTokens(text, counter, bound);
  const reserve = counter.count(omissionMarker(original.tokens, original.exact)) + 2;
  let room = maxTokens - reserve;
  for (let attempt = 0; attempt < 24 && room > 0; attempt++) {
    const cut = cutOnce(text, room, anchor, counter, text.length / Math.max(1, original.tokens));
    const omitted = Math.max(1, original.tokens - cut.keptTokens);
    const marker = omissionMarker(omitted, original.exact);
    const output =
      anchor === "head"
        ? `${cut.head}\n${marker}`
        : anchor === "tail"
          ? `${marker}\n${cut.tail}`
          : `${cut.head}\n${marker}\n${cut.tail}`;
    const tokens = countNear(output, maxTokens, counter);
    if (tokens <= maxTokens) {
      return {
        text: output,
        truncated: true,
        tokens,
        ...originalOf(original),
        omittedTokens: omitted,
      };
    }
    room -= Math.max(1, tokens - maxTokens, Math.floor(room / 10));
  }
  return tinyCut(maxTokens, original, counter);
}

function originalOf(original: { tokens: number; exact: boolean }) {
  return { originalTokens: original.tokens, originalExact: original.exact };
}

function cutOnce(
  text: string,
  room: number,
  anchor: TextAnchor,
  counter: TokenCounter,
  charsPerToken: number,
) {
  const headRoom = anchor === "head" ? room : anchor === "tail" ? 0 : Math.ceil(room / 2);
  const tailRoom = room - headRoom;
  const guess = (tokens: number) => tokens * charsPerToken * 0.97;
  let headLength = longestFitting(
    text.length,
    headRoom,
    (n) => text.slice(0, n),
    counter,
    guess(headRoom),
  );
  headLength = safeCutIndex(text, headLength);
  const rest = text.length - headLength;
  let tailLength = longestFitting(
    rest,
    tailRoom,
    (n) => text.slice(text.length - n),
    counter,
    guess(tailRoom),
  );
  tailLength = text.length - safeCutIndex(text, text.length - tailLength, true);
  const head = text.slice(0, headLength);
  const tail = tailLength > 0 ? text.slice(text.length - tailLength) : "";
  const keptTokens = (head ? counter.count(head) : 0) + (tail ? counter.count(tail) : 0);
  return { head, tail, keptTokens };
}

/** For budgets too small for any text: the longest marker that fits, else the empty string. */
function tinyCut(
  maxTokens: number,
  original: { tokens: number; exact: boolean },
  counter: TokenCounter,
): TextCut {
  for (const marker of [omissionMarker(original.tokens, original.exact), ...TINY_MARKERS]) {
    const tokens = counter.count(marker);
    if (tokens <= maxTokens) {
      return {
        text: marker,
        truncated: true,
        tokens,
        ...originalOf(original),
        omittedTokens: original.tokens,
      };
    }
  }
  return {
    text: "",
    truncated: true,
    tokens: 0,
    ...originalOf(original),
    omittedTokens: original.tokens,
  };
}
