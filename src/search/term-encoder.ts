/** Turns a tool into term ids per field for the posting store, caching the work per text piece. */

import type { ToolDefinition } from "../catalog/index.js";
import { forEachPiece, STOP_WORDS, splitIdentifier, stem, tokenize } from "../text/index.js";
import { extractFieldTexts, FIELD_COUNT, Field } from "./fields.js";
import { HASH_SEED, hashStep, PieceTable } from "./piece-table.js";
import type { PostingStore } from "./posting-store.js";
import { nameSuffix } from "./suggest.js";

const NON_ASCII = /[^ -~\t\n\r]/;

/** Encodes tools into the store's vocabulary; each distinct piece of text is tokenised once. */
export class TermEncoder {
  private readonly pieces = new PieceTable<readonly number[]>();

  constructor(private readonly store: PostingStore) {}

  /** Term ids of each field of a tool (in field order); `compounds` adds joined name-word pairs. */
  encode(tool: ToolDefinition, compounds: boolean): number[][] {
    const texts = extractFieldTexts(tool);
    const fieldTerms: number[][] = [];
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      fieldTerms.push(this.termIdsOf(texts[field] ?? ""));
    }
    if (compounds) fieldTerms[Field.name]?.push(...this.compoundIds(tool.name));
    return fieldTerms;
  }

  /** Joined adjacent name words (`screen_shot` → `screenshot`), so spelling a compound either way matches. */
  private compoundIds(name: string): number[] {
    const words = splitIdentifier(nameSuffix(name)).filter((word) => !STOP_WORDS.has(word));
    const out: number[] = [];
    for (let index = 1; index < words.length; index += 1) {
      const joined = `${words[index - 1]}${words[index]}`;
      // a separate namespace (`~`), so only a single query word can match a joined name pair
      if (/^\p{L}+$/u.test(joined)) out.push(this.store.intern(`~${stem(joined)}`));
    }
    return out;
  }

  /** Term ids of a text; each distinct piece is tokenised and interned once, then cached. */
  private termIdsOf(text: string): number[] {
    const out: number[] = [];
    if (NON_ASCII.test(text)) {
      forEachPiece(text, (piece) => {
        let hash = HASH_SEED;
        for (let index = 0; index < piece.length; index += 1)
          hash = hashStep(hash, piece.charCodeAt(index));
        for (const id of this.pieceIds(piece, 0, piece.length, hash)) out.push(id);
      });
      return out;
    }
    // ASCII fast path: scan and hash in one pass, no substring until a piece is new
    let start = -1;
    let hash = HASH_SEED;
    for (let index = 0; index <= text.length; index += 1) {
      const code = index < text.length ? text.charCodeAt(index) : 32;
      if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
        if (start < 0) {
          start = index;
          hash = HASH_SEED;
        }
        hash = hashStep(hash, code);
      } else if (start >= 0) {
        for (const id of this.pieceIds(text, start, index, hash)) out.push(id);
        start = -1;
      }
    }
    return out;
  }

  private pieceIds(text: string, start: number, end: number, hash: number): readonly number[] {
    const known = this.pieces.find(text, start, end, hash);
    if (known !== undefined) return known;
    const piece = text.slice(start, end);
    // the index keeps surface words; queries reach other inflections through stem groups
    const ids = tokenize(piece, { stem: false }).map((token) => this.store.intern(token));
    this.pieces.insert(piece, hash, ids);
    return ids;
  }
}
