/** Turns a tool into term ids per field for the posting store, caching the work per text piece. */

import type { ToolDefinition } from "../catalog/index.js";
import { forEachPiece, STOP_WORDS, splitIdentifier, stem, tokenize } from "../text/index.js";
import { extractFieldTexts, FIELD_COUNT } from "./fields.js";
import { HASH_SEED, hashStep, PieceTable } from "./piece-table.js";
import type { PostingStore } from "./posting-store.js";
import { nameSuffix } from "./suggest.js";

const NON_ASCII = /[^ -~\t\n\r]/;
const NO_IDS: readonly number[] = [];

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
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      this.bounds[field] = this.count;
      this.appendText(texts[field] ?? "");
    }
    this.bounds[COMPOUND_SEGMENT] = this.count;
    if (compounds) this.appendCompounds(tool.name);
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

  /** Joined adjacent name words (`screen_shot` → `screenshot`), so spelling a compound either way matches. */
  private appendCompounds(name: string): void {
    const words = splitIdentifier(nameSuffix(name));
    let previous: string | undefined;
    for (const word of words) {
      if (STOP_WORDS.has(word)) continue;
      if (previous !== undefined) {
        const joined = `${previous}${word}`;
        // a separate namespace (`~`), so only a single query word can match a joined name pair
        if (/^\p{L}+$/u.test(joined)) this.push(this.store.intern(`~${stem(joined)}`));
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
