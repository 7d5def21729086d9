/**
 * Document ids by string key, like `IdsByKey`, for keys that are new strings (not shared with a
 * tool): the keys' characters live in one pooled table instead of a string and a Map entry each,
 * which kept about 120 bytes of heap per tool and made big builds pay for extra full collections.
 */

import { HASH_SEED, hashStep, PieceTable } from "./piece-table.js";

const NONE: readonly number[] = [];

function hashOf(key: string): number {
  let hash = HASH_SEED;
  for (let index = 0; index < key.length; index += 1) hash = hashStep(hash, key.charCodeAt(index));
  return hash;
}

/** Document ids by key, in insertion order; a key's first id is kept in a typed array. */
export class PooledIds {
  private readonly keys = new PieceTable();
  /** Per key entry: its first id, or -1 when it has none. */
  private first = new Int32Array(1024).fill(-1);
  /** The ids after the first, for the few keys shared by several documents. */
  private readonly more = new Map<number, number[]>();

  /** Adds `id` under `key`. */
  add(key: string, id: number): void {
    const hash = hashOf(key);
    let entry = this.keys.find(key, 0, key.length, hash);
    if (entry < 0) {
      entry = this.keys.insert(key, hash, NONE);
      if (entry >= this.first.length) {
        const grown = new Int32Array(this.first.length * 2).fill(-1);
        grown.set(this.first);
        this.first = grown;
      }
    }
    if (this.first[entry] === -1) {
      this.first[entry] = id;
      return;
    }
    const rest = this.more.get(entry);
    if (rest) rest.push(id);
    else this.more.set(entry, [id]);
  }

  /** Removes `id` from `key` (other ids keep their order). */
  delete(key: string, id: number): void {
    const entry = this.keys.find(key, 0, key.length, hashOf(key));
    if (entry < 0 || this.first[entry] === -1) return;
    const rest = this.more.get(entry);
    if (this.first[entry] === id) {
      this.first[entry] = rest ? (rest.shift() as number) : -1;
    } else if (rest) {
      const at = rest.indexOf(id);
      if (at >= 0) rest.splice(at, 1);
    }
    if (rest && rest.length === 0) this.more.delete(entry);
  }

  /** The ids under `key`, in insertion order (empty when none). */
  get(key: string): readonly number[] {
    const entry = this.keys.find(key, 0, key.length, hashOf(key));
    if (entry < 0) return NONE;
    const head = this.first[entry] as number;
    if (head === -1) return NONE;
    const rest = this.more.get(entry);
    return rest ? [head, ...rest] : [head];
  }
}
