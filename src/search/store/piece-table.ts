/**
 * Maps text pieces (runs of letters and digits) to their term ids without slicing strings: the
 * caller hashes characters while scanning, and the table compares them in place against one flat
 * pool of stored characters. Building an index of 100k tools looks up millions of pieces, and
 * slicing plus Map hashing dominated; pointer-chasing to one string per piece came next.
 */

const EMPTY = -1;
/** `code` of a piece with no term ids (a stop word). */
export const NO_TERM = -1;

/** FNV-1a step over one UTF-16 code unit. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}

/**
 * The FNV-1a offset basis, mixed with a random number per process: every table confirms its hits
 * against the real text, so results never depend on it, but names crafted to collide (to make
 * indexing a hostile catalog quadratic) only collide for the seed they were crafted against.
 */
export const HASH_SEED = (2166136261 ^ Math.floor(Math.random() * 0x100000000)) | 0;

function grownInt32(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (array.length >= size) return array;
  const grown = new Int32Array(Math.max(size, array.length * 2));
  grown.set(array);
  return grown;
}

/**
 * An open-addressing table from piece text to its term ids. Each entry has a `code`: a single
 * term id (`>= 0`), `NO_TERM`, or `-2 - k` for the k-th list of several ids (see `idsOf`).
 */
export class PieceTable {
  private slots = new Int32Array(1 << 12).fill(EMPTY);
  private hashes = new Int32Array(1 << 11);
  /** Entry `i` holds characters `chars[starts[i]] .. chars[starts[i + 1]]`. */
  private starts = new Int32Array(1 << 11);
  private chars = new Uint16Array(1 << 14);
  /** Per entry, see the class comment. */
  codes = new Int32Array(1 << 11);
  private readonly lists: (readonly number[])[] = [];
  private count = 0;

  /** Number of pieces stored. */
  get size(): number {
    return this.count;
  }

  /** The entry of `text.slice(start, end)` (hashed as `hash`), or -1 when it is not stored. */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    const chars = this.chars;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] as number;
      if (entry === EMPTY) return -1;
      if (this.hashes[entry] !== hash) continue;
      const from = this.starts[entry] as number;
      if ((this.starts[entry + 1] as number) - from !== length) continue;
      let offset = 0;
      while (offset < length && chars[from + offset] === text.charCodeAt(start + offset)) {
        offset += 1;
      }
      if (offset === length) return entry;
    }
  }

  /** The term ids of a `code` of several ids. */
  idsOf(code: number): readonly number[] {
    return this.lists[-2 - code] as readonly number[];
  }

  /** Stores the term ids of a piece not yet in the table; returns its entry. */
  insert(piece: string, hash: number, ids: readonly number[]): number {
    if ((this.count + 1) * 2 > this.slots.length) this.resize();
    const entry = this.count;
    this.count += 1;
    this.hashes = grownInt32(this.hashes, this.count);
    this.codes = grownInt32(this.codes, this.count);
    this.starts = grownInt32(this.starts, this.count + 1);
    const from = this.starts[entry] as number;
    if (this.chars.length < from + piece.length) {
      const grown = new Uint16Array(Math.max(from + piece.length, this.chars.length * 2));
      grown.set(this.chars);
      this.chars = grown;
    }
    for (let offset = 0; offset < piece.length; offset += 1) {
      this.chars[from + offset] = piece.charCodeAt(offset);
    }
    this.starts[entry + 1] = from + piece.length;
    this.hashes[entry] = hash;
    if (ids.length === 0) this.codes[entry] = NO_TERM;
    else if (ids.length === 1) this.codes[entry] = ids[0] as number;
    else {
      this.codes[entry] = -2 - this.lists.length;
      this.lists.push(ids);
    }
    this.place(entry, hash);
    return entry;
  }

  private place(entry: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }

  private resize(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    for (let entry = 0; entry < this.count; entry += 1) {
      this.place(entry, this.hashes[entry] as number);
    }
  }
}
