/** Turns a tool into term ids per field for the posting store, caching the work per text piece. */

import type { ToolDefinition } from "../catalog/index.js";
import { forEachPiece, STOP_WORDS, splitIdentifier, stem, tokenize } from "../text/index.js";
import { extractFieldTexts, FIELD_COUNT } from "./fields.js";
import { HASH_SEED, hashStep, PieceTable } from "./piece-table.js";
import type { PostingStore } from "./posting-store.js";
import { nameSuffix } from "./suggest.js";

/** Offset where `nameSuffix(name)` begins within `name`. */
function nameSuffixStart(name: string): number {
  return name.length - nameSuffix(name).length;
}

const NON_ASCII = /[^ -~\t\n\r]/;
const NO_IDS: readonly number[] = [];
const LETTERS = /^\p{L}+$/u;
/** Pair keys `first · 2^26 + second` stay exact doubles for vocabularies under 2^26 terms. */
const PAIR_BASE = 2 ** 26;

/**
 * The term ids of one tool in one buffer: segment `s` is `ids[bounds[s]] .. ids[bounds[s + 1]]`.
 * Segments 0–7 are the fields; segment 8 (`COMPOUND_SEGMENT`) holds the joined name-word pairs,
 * which belong to the name field. Owned by the encoder and overwritten by its next `encode`.
 */
export interface EncodedTool {
  readonly ids: Int32Array;
  readonly bounds: Int32Array;
}

/** The segment of `EncodedTool` holding the name's compound terms (counted in the name field). */
export const COMPOUND_SEGMENT = FIELD_COUNT;

/** Encodes tools into the store's vocabulary; each distinct piece of text is tokenised once. */
export class TermEncoder {
  private readonly pieces = new PieceTable<readonly number[]>();
  private ids = new Int32Array(256);
  private count = 0;
  /** While encoding an ASCII name: where its part after the namespace starts (else -1). */
  private suffixAt = -1;
  /** The first id of the name's part after the namespace, once reached. */
  private suffixIndex = -1;
  /** Compound term id (or -1 for none) by the term ids of the two joined words. */
  private readonly compoundOf = new Map<number, number>();
  private readonly bounds = new Int32Array(COMPOUND_SEGMENT + 2);
  private readonly encoded: { ids: Int32Array; bounds: Int32Array } = {
    ids: this.ids,
    bounds: this.bounds,
  };

  constructor(private readonly store: PostingStore) {}

  /** Term ids of each field of a tool (see `EncodedTool`); `compounds` adds joined name-word pairs. */
  encode(tool: ToolDefinition, compounds: boolean): EncodedTool {
    const texts = extractFieldTexts(tool);
    this.count = 0;
    const name = texts[0] ?? "";
    const ascii = !NON_ASCII.test(name);
    this.suffixAt = compounds && ascii ? nameSuffixStart(name) : -1;
    this.suffixIndex = -1;
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      this.bounds[field] = this.count;
      this.appendText(texts[field] ?? "");
      this.suffixAt = -1;
    }
    this.bounds[COMPOUND_SEGMENT] = this.count;
    if (compounds && ascii) this.appendNameCompounds();
    else if (compounds) this.appendCompounds(tool.name);
    this.bounds[COMPOUND_SEGMENT + 1] = this.count;
    this.encoded.ids = this.ids;
    return this.encoded;
  }

  private push(id: number): void {
    if (this.count === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.count++] = id;
  }

  private pushAll(list: readonly number[]): void {
    for (let index = 0; index < list.length; index += 1) this.push(list[index] as number);
  }

  /**
   * The compounds of the name's words after its namespace, from their term ids (an ASCII name's
   * pieces after the cut are the pieces of its suffix): same terms as `appendCompounds`, cached per pair.
   */
  private appendNameCompounds(): void {
    const start = this.suffixIndex < 0 ? (this.bounds[1] as number) : this.suffixIndex;
    const end = this.bounds[1] as number;
    for (let index = start + 1; index < end; index += 1) {
      const compound = this.compoundTerm(this.ids[index - 1] as number, this.ids[index] as number);
      if (compound >= 0) this.push(compound);
    }
  }

  private compoundTerm(first: number, second: number): number {
    const cacheable = second < PAIR_BASE;
    const key = first * PAIR_BASE + second;
    const known = cacheable ? this.compoundOf.get(key) : undefined;
    if (known !== undefined) return known;
    const joined = `${this.store.terms[first]}${this.store.terms[second]}`;
    // a separate namespace (`~`), so only a single query word can match a joined name pair
    const compound = LETTERS.test(joined) ? this.store.intern(`~${stem(joined)}`) : -1;
    if (cacheable) this.compoundOf.set(key, compound);
    return compound;
  }

  /** Joined adjacent name words (`screen_shot` → `screenshot`), so spelling a compound either way matches. */
  private appendCompounds(name: string): void {
    const words = splitIdentifier(nameSuffix(name));
    let previous: string | undefined;
    for (const word of words) {
      if (STOP_WORDS.has(word)) continue;
      if (previous !== undefined) {
        const joined = `${previous}${word}`;
        // a separate namespace (`~`), so only a single query word can match a joined name pair
        if (LETTERS.test(joined)) this.push(this.store.intern(`~${stem(joined)}`));
      }
      previous = word;
    }
  }

  /** Appends the term ids of a text; each distinct piece is tokenised and interned once, then cached. */
  private appendText(text: string): void {
    if (NON_ASCII.test(text)) {
      forEachPiece(text, (piece) => {
        let hash = HASH_SEED;
        for (let index = 0; index < piece.length; index += 1)
          hash = hashStep(hash, piece.charCodeAt(index));
        this.pushAll(this.pieceIds(piece, 0, piece.length, hash));
      });
      return;
    }
    // ASCII fast path: scan and hash in one pass, no substring until a piece is new
    let start = -1;
    let hash = HASH_SEED;
    const length = text.length;
    for (let index = 0; index <= length; index += 1) {
      const code = index < length ? text.charCodeAt(index) : 32;
      if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
        if (start < 0) {
          start = index;
          hash = HASH_SEED;
        }
        hash = hashStep(hash, code);
      } else if (start >= 0) {
        if (start >= this.suffixAt && this.suffixAt >= 0 && this.suffixIndex < 0) {
          this.suffixIndex = this.count;
        }
        this.pushAll(this.pieceIds(text, start, index, hash));
        start = -1;
      }
    }
  }

  private pieceIds(text: string, start: number, end: number, hash: number): readonly number[] {
    const known = this.pieces.find(text, start, end, hash);
    if (known !== undefined) return known;
    const piece = text.slice(start, end);
    // the index keeps surface words; queries reach other inflections through stem groups
    const ids = isPlainWord(piece)
      ? STOP_WORDS.has(piece)
        ? NO_IDS
        : [this.store.intern(piece)]
      : tokenize(piece, { stem: false }).map((token) => this.store.intern(token));
    this.pieces.insert(piece, hash, ids);
    return ids;
  }
}

/** True for an all-lowercase-ASCII or all-digit piece: it is its own single word. */
function isPlainWord(piece: string): boolean {
  const first = piece.charCodeAt(0);
  const digits = first >= 48 && first <= 57;
  for (let index = 0; index < piece.length; index += 1) {
    const code = piece.charCodeAt(index);
    if (digits ? code < 48 || code > 57 : code < 97 || code > 122) return false;
  }
  return piece.length > 0;
}
