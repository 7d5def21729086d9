/** Text normalisation and tokenisation shared by search and budgets. */

import { stem } from "./stem.js";
import { STOP_WORDS } from "./stop-words.js";

/** How `tokenize` treats the words it finds. */
export interface TokenizeOptions {
  /** Apply Porter stemming (default true). */
  stem?: boolean;
  /** Drop stop words (default true). */
  dropStopWords?: boolean;
}

const NON_ASCII = /[^ -~\t\n\r]/;
const COMBINING_MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const LOWER_THEN_UPPER = /(\p{Ll})(\p{Lu})/gu;
const ACRONYM_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const LETTER_THEN_DIGIT = /(\p{L})(\p{N})/gu;
const DIGIT_THEN_LETTER = /(\p{N})(\p{L})/gu;

/** Applies NFKD and strips accents (combining marks); ASCII text is returned unchanged. */
export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  return text.normalize("NFKD").replace(COMBINING_MARKS, "");
}

const pieceCache = new Map<string, readonly string[]>();
const PIECE_CACHE_LIMIT = 200_000;

/** True for an all-lowercase-ASCII or all-digit piece, which splits into just itself (one word). */
export function isPlainPiece(piece: string): boolean {
  const first = piece.charCodeAt(0);
  const digits = first >= 48 && first <= 57;
  for (let index = 0; index < piece.length; index += 1) {
    const code = piece.charCodeAt(index);
    if (digits ? code < 48 || code > 57 : code < 97 || code > 122) return false;
  }
  return piece.length > 0;
}

/** Splits one separator-free piece at camelCase, ACRONYMCase and digit boundaries, lowercased. */
function splitPiece(piece: string): readonly string[] {
  if (isPlainPiece(piece)) return [piece];
  const ascii = splitAsciiPiece(piece);
  if (ascii !== undefined) return ascii;
  const cached = pieceCache.get(piece);
  if (cached !== undefined) return cached;
  const spaced = piece
    .replace(LOWER_THEN_UPPER, "$1 $2")
    .replace(ACRONYM_THEN_WORD, "$1 $2")
    .replace(LETTER_THEN_DIGIT, "$1 $2")
    .replace(DIGIT_THEN_LETTER, "$1 $2")
    .toLowerCase();
  const parts = spaced.split(" ").filter((part) => part.length > 0);
  if (pieceCache.size >= PIECE_CACHE_LIMIT) pieceCache.clear();
  pieceCache.set(piece, parts);
  return parts;
}

const isLower = (code: number) => code >= 97 && code <= 122;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * `splitPiece` for a piece of ASCII letters and digits, or undefined for any other piece: one
 * scan that cuts where the four patterns would put a space (lower|Upper, UPPER|Upper lower,
 * letter|digit, digit|letter). A capitalised word, the start of most descriptions, took four
 * regex passes, a split and a cache entry.
 */
function splitAsciiPiece(piece: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let previous = piece.charCodeAt(0);
  if (previous > 127) return undefined;
  for (let index = 1; index < piece.length; index += 1) {
    const code = piece.charCodeAt(index);
    if (code > 127) return undefined;
    const cut = isDigit(previous)
      ? !isDigit(code)
      : isDigit(code) ||
        (isUpper(code) &&
          (isLower(previous) || (isUpper(previous) && isLower(piece.charCodeAt(index + 1)))));
    if (cut) {
      parts.push(piece.slice(start, index).toLowerCase());
      start = index;
    }
    previous = code;
  }
  parts.push(piece.slice(start).toLowerCase());
  return parts;
}

/** Calls `visit` with each maximal run of letters and digits (pieces between separators). */
export function forEachPiece(text: string, visit: (piece: string) => void): void {
  if (NON_ASCII.test(text)) {
    for (const piece of normalizeText(text).split(SEPARATORS)) if (piece.length > 0) visit(piece);
    return;
  }
  // ASCII fast path: a hand-written scan is several times faster than a Unicode regex split
  let start = -1;
  for (let index = 0; index <= text.length; index += 1) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    const wordChar =
      (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
    if (wordChar) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      visit(text.slice(start, index));
      start = -1;
    }
  }
}

/**
 * Splits an identifier or any text into lowercase words: on `__ _ . - : /`, whitespace and other
 * punctuation, then at camelCase, ACRONYMCase and letter/digit boundaries. No stemming, no stop
 * words: `DNS_updateDNSRecordsV1` gives `dns update dns records v 1`.
 */
export function splitIdentifier(name: string): string[] {
  const out: string[] = [];
  forEachPiece(name, (piece) => {
    for (const part of splitPiece(piece)) out.push(part);
  });
  return out;
}

const searchTokenCache = new Map<string, readonly string[]>();

/** The default tokens of one piece (stop words dropped, stemmed), cached. */
function searchTokens(piece: string): readonly string[] {
  const cached = searchTokenCache.get(piece);
  if (cached !== undefined) return cached;
  const tokens = splitPiece(piece)
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) => stem(word));
  if (searchTokenCache.size >= PIECE_CACHE_LIMIT) searchTokenCache.clear();
  searchTokenCache.set(piece, tokens);
  return tokens;
}

/**
 * Turns text into search tokens: `splitIdentifier`, then stop words dropped and Porter stemming,
 * each unless switched off in `options`. Order is kept and duplicates stay (they count as tf).
 */
export function tokenize(text: string, options?: TokenizeOptions): string[] {
  const doStem = options?.stem ?? true;
  const dropStop = options?.dropStopWords ?? true;
  const out: string[] = [];
  if (doStem && dropStop) {
    forEachPiece(text, (piece) => {
      for (const token of searchTokens(piece)) out.push(token);
    });
    return out;
  }
  for (const word of splitIdentifier(text)) {
    if (dropStop && STOP_WORDS.has(word)) continue;
    out.push(doStem ? stem(word) : word);
  }
  return out;
}
