/**
 * Maps text pieces (runs of letters and digits) to their term ids without slicing strings: the
 * caller hashes characters while scanning, and the table compares characters in place. Building
 * an index of 100k tools looks up millions of pieces, and slicing plus Map hashing dominated.
 */

const EMPTY = -1;

/** FNV-1a step over one UTF-16 code unit. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}

/** The FNV-1a offset basis. */
export const HASH_SEED = 2166136261 | 0;

/** An open-addressing table from piece text to a value (the piece's term ids). */
export class PieceTable<T> {
  private slots = new Int32Array(1 << 12).fill(EMPTY);
  private readonly pieces: string[] = [];
  private hashes = new Int32Array(1 << 11);
  private readonly values: T[] = [];

  /** Number of pieces stored. */
  get size(): number {
    return this.pieces.length;
  }

  /** The value stored for `text.slice(start, end)` (hashed as `hash`), or undefined. */
  find(text: string, start: number, end: number, hash: number): T | undefined {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.slots[slot] as number;
      if (index === EMPTY) return undefined;
      if (this.hashes[index] !== hash) continue;
      const piece = this.pieces[index] as string;
      if (piece.length !== length) continue;
      let same = true;
      for (let offset = 0; offset < length; offset += 1) {
        if (piece.charCodeAt(offset) !== text.charCodeAt(start + offset)) {
          same = false;
          break;
        }
      }
      if (same) return this.values[index];
    }
  }

  /** Stores a value for a piece not yet in the table. */
  insert(piece: string, hash: number, value: T): void {
    if ((this.pieces.length + 1) * 2 > this.slots.length) this.resize();
    const index = this.pieces.length;
    this.pieces.push(piece);
    if (index >= this.hashes.length) {
      const grown = new Int32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[index] = hash;
    this.values.push(value);
    this.place(index, hash);
  }

  private place(index: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = index;
  }

  private resize(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    for (let index = 0; index < this.pieces.length; index += 1) {
      this.place(index, this.hashes[index] as number);
    }
  }
}
