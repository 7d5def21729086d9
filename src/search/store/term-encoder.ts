/** Turns a tool into term ids per field for the posting store, caching the work per text piece. */

import type { ToolDefinition } from "../../catalog/index.js";
import { nameSuffix, nameSuffixStart } from "../../internal/index.js";
import {
  forEachPiece,
  isPlainPiece,
  STOP_WORDS,
  splitIdentifier,
  stem,
  tokenize,
} from "../../text/index.js";
import { COMPOUND_SEGMENT, type EncodedTool } from "./encoded-tool.js";
import { CLIPPED_FROM, FIELD_COUNT, FieldItems, MAX_FIELD_CHARS } from "./fields.js";
import { HASH_SEED, hashStep, NO_TERM, PieceTable } from "./piece-table.js";
import type { Vocabulary } from "./vocabulary.js";

const NON_ASCII = /[^ -~\t\n\r]/;
const NO_IDS: readonly number[] = [];
const LETTERS = /^\p{L}+$/u;
/** Pair keys `first · 2^26 + second` stay exact doubles for vocabularies under 2^26 terms. */
const PAIR_BASE = 2 ** 26;

/** Encodes tools into the store's vocabulary; each distinct piece of text is tokenised once. */
export class TermEncoder {
  private readonly pieces = new PieceTable();
  private readonly fields = new FieldItems();
  /** Per term id: 0 not yet known, 1 all letters, 2 not (a pair joins only two letter terms). */
  private letters = new Uint8Array(1024);
  private ids = new Int32Array(256);
  private count = 0;
  /** While encoding an ASCII name: where its part after the namespace starts (else -1). */
  private suffixAt = -1;
  /** After encoding an ASCII name with compounds: `nameSuffixStart(name)`; else -1. */
  nameCut = -1;
  /** The first id of the name's part after the namespace, once reached. */
  private suffixIndex = -1;
  /** Compound term id (or -1 for none) by the term ids of the two joined words. */
  private readonly compoundOf = new Map<number, number>();
  /** True after encoding an ASCII name with compounds: the name's suffix ids are known. */
  private suffixKnown = false;
  private readonly bounds = new Int32Array(COMPOUND_SEGMENT + 2);
  private readonly encoded: { ids: Int32Array; bounds: Int32Array } = {
    ids: this.ids,
    bounds: this.bounds,
  };

  constructor(private readonly store: Vocabulary) {}

  /** Term ids of each field of a tool (see `EncodedTool`); `compounds` adds joined name-word pairs. */
  encode(tool: ToolDefinition, compounds: boolean): EncodedTool {
    const fields = this.fields;
    fields.collect(tool);
    this.count = 0;
    const name = tool.name;
    const ascii = !NON_ASCII.test(name);
    this.suffixAt = compounds && ascii ? nameSuffixStart(name) : -1;
    this.nameCut = this.suffixAt;
    this.suffixIndex = -1;
    this.suffixKnown = compounds && ascii;
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      this.bounds[field] = this.count;
      const items = fields.items[field] as string[];
      if (field < CLIPPED_FROM) this.appendText(items[0] as string);
      else this.appendItems(items, fields.counts[field] as number);
      this.suffixAt = -1;
    }
    this.bounds[COMPOUND_SEGMENT] = this.count;
    if (compounds && ascii) this.appendNameCompounds();
    else if (compounds) this.appendCompounds(tool.name);
    this.bounds[COMPOUND_SEGMENT + 1] = this.count;
    this.encoded.ids = this.ids;
    return this.encoded;
  }

  /**
   * Appends the ids of the items joined by spaces and clipped to `MAX_FIELD_CHARS`, scanning each
   * item in place when the joined text would be short enough (the usual case): the space between
   * two items ends a piece either way.
   */
  private appendItems(items: readonly string[], count: number): void {
    let length = count - 1;
    for (let index = 0; index < count; index += 1) length += (items[index] as string).length;
    if (length <= MAX_FIELD_CHARS) {
      for (let index = 0; index < count; index += 1) this.appendText(items[index] as string);
      return;
    }
    const joined = items.slice(0, count).join(" ");
    this.appendText(joined.length > MAX_FIELD_CHARS ? joined.slice(0, MAX_FIELD_CHARS) : joined);
  }

  /**
   * The hash (`hashFrom`) of the stemmed words of the name's part after its namespace joined by
   * spaces (stop words left out), from the last `encode`'s term ids, without building the string;
   * undefined when they were not tracked (non-ASCII name or compounds off). The phrase equals
   * `phraseKey(splitIdentifier(nameSuffix(name)))`.
   */
  namePhraseHash(): number | undefined {
    if (!this.suffixKnown) return undefined;
    const end = this.bounds[1] as number;
    const start = this.suffixIndex < 0 ? end : this.suffixIndex;
    // the name tables share the vocabulary's basis (a restored index keeps its snapshot's)
    let hash = this.store.hashSeed;
    for (let index = start; index < end; index += 1) {
      const stemmed = this.store.stemOf(this.ids[index] as number);
      if (index > start) hash = hashStep(hash, 32);
      for (let at = 0; at < stemmed.length; at += 1) hash = hashStep(hash, stemmed.charCodeAt(at));
    }
    return hash;
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
    // a pair with a digit (tool numbers) never joins: answer without touching the cache
    if (!this.allLetters(first) || !this.allLetters(second)) return -1;
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

  private allLetters(term: number): boolean {
    if (term >= this.letters.length) {
      const grown = new Uint8Array(Math.max(term + 1, this.letters.length * 2));
      grown.set(this.letters);
      this.letters = grown;
    }
    let known = this.letters[term] as number;
    if (known === 0) {
      known = LETTERS.test(this.store.terms[term] as string) ? 1 : 2;
      this.letters[term] = known;
    }
    return known === 1;
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

  /**
   * Appends the term ids of a text; each distinct piece is tokenised and interned once, then
   * cached. Runs of ASCII letters and digits are scanned and hashed in place, with no substring
   * until a piece is new; a run that holds a non-ASCII character goes through `forEachPiece`
   * (normalised, then split by the Unicode rule), which cuts the same pieces as the whole text
   * would give it (see `forEachPiece`). A quarter of the real catalogs' text is in fields with
   * one accented word or symbol, which sent the whole field down the Unicode path before.
   */
  private appendText(text: string): void {
    let start = -1;
    let plain = true;
    let hash = HASH_SEED;
    const length = text.length;
    for (let index = 0; index <= length; index += 1) {
      const code = index < length ? text.charCodeAt(index) : 32;
      if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
        if (start < 0) {
          start = index;
          plain = true;
          hash = HASH_SEED;
        }
        hash = hashStep(hash, code);
      } else if (code > 127) {
        if (start < 0) start = index;
        plain = false;
      } else if (start >= 0) {
        if (start >= this.suffixAt && this.suffixAt >= 0 && this.suffixIndex < 0) {
          this.suffixIndex = this.count;
        }
        if (plain) this.pushPiece(text, start, index, hash);
        else this.appendUnicode(text.slice(start, index));
        start = -1;
      }
    }
  }

  /** Appends the term ids of a run of letters, digits and non-ASCII characters. */
  private appendUnicode(run: string): void {
    forEachPiece(run, (piece) => {
      let hash = HASH_SEED;
      for (let index = 0; index < piece.length; index += 1)
        hash = hashStep(hash, piece.charCodeAt(index));
      this.pushPiece(piece, 0, piece.length, hash);
    });
  }

  /** Appends the term ids of `text.slice(start, end)`, tokenising and interning it when new. */
  private pushPiece(text: string, start: number, end: number, hash: number): void {
    let entry = this.pieces.find(text, start, end, hash);
    if (entry < 0) entry = this.addPiece(text.slice(start, end), hash);
    const code = this.pieces.codes[entry] as number;
    if (code >= 0) this.push(code);
    else if (code !== NO_TERM) this.pushAll(this.pieces.idsOf(code));
  }

  private addPiece(piece: string, hash: number): number {
    // the index keeps surface words; queries reach other inflections through stem groups
    const ids = isPlainPiece(piece)
      ? STOP_WORDS.has(piece)
        ? NO_IDS
        : [this.store.intern(piece)]
      : tokenize(piece, { stem: false }).map((token) => this.store.intern(token));
    return this.pieces.insert(piece, hash, ids);
  }
}
