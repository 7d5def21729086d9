/** Cuts plain text to a token budget from the head, the tail or both ends, with a visible marker. */

import type { TokenCounter } from "../tokens/index.js";
import { countAtMost, upperBound } from "../tokens/index.js";

/** Which part of a text survives a cut. */
export type TextAnchor = "head" | "tail" | "head-tail";

/** The outcome of cutting a text. */
export interface TextCut {
  text: string;
  truncated: boolean;
  /** Tokens of `text`, exact. */
  tokens: number;
  /** Tokens of the input; exact when `originalExact`, otherwise an estimate from a sample. */
  originalTokens: number;
  originalExact: boolean;
  /** Tokens left out (estimated when the original is). */
  omittedTokens: number;
}

/** Inputs longer than this (UTF-16 units) get an estimated original count so a cut stays cheap. */
export const EXACT_COUNT_LIMIT = 32_768;
const SAMPLE_LENGTH = 16_384;

/** Whether `text` fits in `limit` tokens, trying the cheap bound before the early-exit count. */
export function fitsTokens(text: string, limit: number, counter: TokenCounter): boolean {
  if (counter.bound && counter.bound(text) <= limit) return true;
  return countAtMost(text, limit, counter) <= limit;
}

/** Token count of a long text: exact below EXACT_COUNT_LIMIT, else the bound scaled by a sample. */
export function measureTokens(
  text: string,
  counter: TokenCounter,
): { tokens: number; exact: boolean } {
  if (text.length <= EXACT_COUNT_LIMIT || !counter.bound) {
    return { tokens: counter.count(text), exact: true };
  }
  const sample = text.slice(0, SAMPLE_LENGTH);
  const ratio = counter.count(sample) / Math.max(1, upperBound(sample, counter));
  return { tokens: Math.round(upperBound(text, counter) * ratio), exact: false };
}

/** Moves a cut index off the middle of a surrogate pair. */
function safeCut(text: string, index: number, forward: boolean): number {
  const code = text.charCodeAt(index - 1);
  if (index > 0 && index < text.length && code >= 0xd800 && code <= 0xdbff) {
    return forward ? index + 1 : index - 1;
  }
  return index;
}

/** Longest n (within ~1.5 %) such that `piece(n)` fits in `limit`; exponential then binary search. */
export function longestFitting(
  max: number,
  limit: number,
  piece: (n: number) => string,
  counter: TokenCounter,
): number {
  if (limit <= 0 || max <= 0) return 0;
  let low = 0;
  let high = max + 1;
  let probe = Math.min(max, limit * 4);
  while (probe > low && fitsTokens(piece(probe), limit, counter)) {
    low = probe;
    if (probe === max) return max;
    probe = Math.min(max, probe * 2);
  }
  if (probe > low) high = probe;
  while (high - low > Math.max(4, low >> 6)) {
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
  if (fitsTokens(text, maxTokens, counter)) {
    const tokens = counter.count(text);
    return {
      text,
      truncated: false,
      tokens,
      originalTokens: tokens,
      originalExact: true,
      omittedTokens: 0,
    };
  }
  const original = measureTokens(text, counter);
  const reserve = counter.count(omissionMarker(original.tokens, original.exact)) + 2;
  let room = maxTokens - reserve;
  for (let attempt = 0; attempt < 24 && room > 0; attempt++) {
    const cut = cutOnce(text, room, anchor, counter);
    const omitted = Math.max(1, original.tokens - cut.keptTokens);
    const marker = omissionMarker(omitted, original.exact);
    const output =
      anchor === "head"
        ? `${cut.head}\n${marker}`
        : anchor === "tail"
          ? `${marker}\n${cut.tail}`
          : `${cut.head}\n${marker}\n${cut.tail}`;
    const tokens = countAtMost(output, maxTokens, counter);
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

function cutOnce(text: string, room: number, anchor: TextAnchor, counter: TokenCounter) {
  const headRoom = anchor === "head" ? room : anchor === "tail" ? 0 : Math.ceil(room / 2);
  const tailRoom = room - headRoom;
  let headLength = longestFitting(text.length, headRoom, (n) => text.slice(0, n), counter);
  headLength = safeCut(text, headLength, false);
  const rest = text.length - headLength;
  let tailLength = longestFitting(rest, tailRoom, (n) => text.slice(text.length - n), counter);
  tailLength = text.length - safeCut(text, text.length - tailLength, true);
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
