/**
 * A fast upper bound on the o200k_base token count, computed in one pass without the vocabulary.
 *
 * Why it never undercounts (each rule is checked by `o200k-bound.test.ts`):
 * 1. Byte-level BPE: every token covers at least one UTF-8 byte, so a character costs at most
 *    its UTF-8 length (non-ASCII characters, control characters and newlines are charged that).
 * 2. o200k splits digits into pieces of at most three, and every 1–3 digit string is one token,
 *    so a run of n digits costs exactly ceil(n / 3).
 * 3. BPE stops only when no two adjacent parts of a piece concatenate to a vocabulary entry. So
 *    two neighbouring characters that are guaranteed to sit in the same pre-tokenizer piece, and
 *    whose two-character string is a token (the pair table), can never both end as one-character
 *    tokens. A three-state dynamic programme takes the most tokens any split allowed by that rule
 *    could give (a lone character may still grow, so only final lone pairs are excluded).
 *    Same-piece pairs (from the o200k split pattern), unless a contraction such as `'ll` ends
 *    just before: lower-lower, upper-letter, punctuation-punctuation (except after `/`),
 *    space-letter, space-punctuation, and space-space when a whitespace follows.
 */

import { O200K_PAIR_BITS_BASE64 } from "./o200k-pairs.js";
import type { TokenCounter } from "./token-counter.js";

const PRINTABLE_FIRST = 32;
const PRINTABLE_COUNT = 95;

const isLower = (code: number) => code >= 97 && code <= 122;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => isLower(code) || isUpper(code);
const isPunctuation = (code: number) =>
  code > 32 && code < 127 && !isLetter(code) && !isDigit(code);
const isWhitespace = (code: number) => code === 32 || (code >= 9 && code <= 13);

const ALWAYS = 1;
const IF_WHITESPACE_FOLLOWS = 2;

/** Whether the o200k split pattern always puts `first` and `second` in the same piece. */
function samePiece(first: number, second: number): number {
  if (isLower(first)) return isLower(second) ? ALWAYS : 0;
  if (isUpper(first)) return isLetter(second) ? ALWAYS : 0;
  // `/` may end a piece through the pattern's trailing `[\r\n/]*`, so it starts no pair
  if (isPunctuation(first)) return first !== 47 && isPunctuation(second) ? ALWAYS : 0;
  if (first === 32) {
    if (isLetter(second) || isPunctuation(second)) return ALWAYS;
    if (second === 32) return IF_WHITESPACE_FOLLOWS;
  }
  return 0;
}

let pairRule: Uint8Array | undefined;

/** Builds the 128×128 table: when two neighbours can never both be one-character tokens. */
function buildPairRule(): Uint8Array {
  // atob exists in Node 16+ and browsers, so the root entry needs no Node-only module
  const binary = atob(O200K_PAIR_BITS_BASE64);
  const rule = new Uint8Array(128 * 128);
  for (let first = PRINTABLE_FIRST; first < 127; first++) {
    for (let second = PRINTABLE_FIRST; second < 127; second++) {
      const bit = (first - PRINTABLE_FIRST) * PRINTABLE_COUNT + (second - PRINTABLE_FIRST);
      const isToken = (binary.charCodeAt(bit >> 3) & (1 << (bit & 7))) !== 0;
      if (isToken) rule[first * 128 + second] = samePiece(first, second);
    }
  }
  return rule;
}

const NEVER = -1_000_000_000;

/** Upper bound on the o200k_base token count of `text`; see the file comment for the proof. */
export function estimateO200kTokens(text: string): number {
  if (pairRule === undefined) pairRule = buildPairRule();
  const rule = pairRule;
  // most tokens a split of the text so far can give, by the state of the last token:
  let long = 0; // it has two or more characters
  let free = NEVER; // it is the last character alone, and may stay alone
  // it is the last character alone after a lone neighbour it would merge with, so it must still
  // grow: BPE never leaves both alone
  let bound = NEVER;
  let previous = 0; // previous character when it takes part in the pair rule, else 0 (no rule)
  let apostrophe = -4; // index of the last `'`
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code >= PRINTABLE_FIRST && code < 127 && (code < 48 || code > 57)) {
      let link = rule[(previous << 7) | code] as number; // row 0 is all zero
      if (link === IF_WHITESPACE_FOLLOWS && !isWhitespace(text.charCodeAt(index + 1))) link = 0;
      // a contraction suffix ('s 't 're 've 'm 'll 'd) may end a piece just before this character
      if (code === 39) apostrophe = index;
      else if (link !== 0 && index - apostrophe <= 3) link = 0;
      const grown = Math.max(long, free, bound);
      const closed = link !== 0 || long > free ? long : free;
      bound = link !== 0 ? free + 1 : NEVER;
      free = closed + 1;
      long = grown;
      previous = code;
      continue;
    }
    let best = Math.max(long, free, bound);
    if (code >= 48 && code <= 57) {
      let end = index + 1;
      while (end < length && isDigit(text.charCodeAt(end))) end++;
      best += Math.ceil((end - index) / 3);
      index = end - 1;
    } else {
      // a surrogate half costs 3: pairs (2 × 3 ≥ 4 bytes) and lone halves (U+FFFD) are covered
      best += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    }
    long = best;
    free = best;
    bound = NEVER;
    previous = 0;
  }
  return Math.max(long, free);
}

/** Upper bound on any byte-level BPE count (o200k, cl100k, …): the UTF-8 length, 3 per surrogate half. */
export function estimateByteBound(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return bytes;
}

/**
 * A counter whose `count` is the fast o200k upper bound: never below the real o200k count, about
 * 2–3× above it on JSON (see the measured ratio in the report). Use it where overcounting is safe.
 */
export const estimateCounter: TokenCounter = {
  name: "o200k_upper_bound",
  count: estimateO200kTokens,
  bound: estimateO200kTokens,
};
