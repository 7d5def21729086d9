/**
 * Document ids filed under a 32-bit hash of a key, with no key stored: the keys (a tool's name,
 * lowercased name, name suffix or name phrase) can be rebuilt from the tool itself, so a lookup
 * confirms each id whose hash matches against the real key. Two typed arrays replace a Map entry
 * and a string per tool, which kept about 70 bytes of heap (and a full-collection cost) per tool.
 */

import { HASH_SEED, hashStep } from "./piece-table.js";

const EMPTY = -1;

/** FNV-1a hash of `text.slice(start)`. */
export function hashFrom(text: string, start = 0): number {
  let hash = HASH_SEED;
  for (let index = start; index < text.length; index += 1) {
    hash = hashStep(hash, text.charCodeAt(index));
  }
  return hash;
}

/**
 * FNV-1a hash of `text.slice(start).toLowerCase()`, folding ASCII letters in place (no string is
 * made unless the text has a non-ASCII character).
 */
export function lowerHashFrom(text: string, start = 0): number {
  let hash = HASH_SEED;
  for (let index = start; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code >= 128) return hashFrom(text.slice(start).toLowerCase());
    if (code >= 65 && code <= 90) code += 32;
    hash = hashStep(hash, code);
  }
  return hash;
}

/**
 * A multimap from hash to ids (open addressing, linear probing); ids of one hash keep their order.
 * Each id is filed at most once at a time; its hash is kept per id, not per slot.
 */
export class HashedIds {
  private ids = new Int32Array(256).fill(EMPTY);
  /** The hash each filed id is filed under, by id. */
  private hashOf = new Int32Array(256);
  private count = 0;

  /** Number of ids filed. */
  get size(): number {
    return this.count;
  }

  /** Files `id` (not filed yet) under `hash`, after any ids already under it. */
  add(hash: number, id: number): void {
    if ((this.count + 1) * 4 > this.ids.length * 3) this.resize();
    if (id >= this.hashOf.length) {
      const grown = new Int32Array(Math.max(id + 1, Math.ceil(this.hashOf.length * 1.5)));
      grown.set(this.hashOf);
      this.hashOf = grown;
    }
    this.hashOf[id] = hash;
    this.place(hash, id);
    this.count += 1;
  }

  /** Removes `id` from under `hash`; false when it was not there. */
  delete(hash: number, id: number): boolean {
    const ids = this.ids;
    const mask = ids.length - 1;
    let slot = hash & mask;
    while (ids[slot] !== EMPTY) {
      if (ids[slot] === id && this.hashOf[id] === hash) {
        this.shiftBack(slot);
        this.count -= 1;
        return true;
      }
      slot = (slot + 1) & mask;
    }
    return false;
  }

  /** Unfiles `id` from under the hash it was filed with; returns false when it is not filed. */
  deleteId(id: number): boolean {
    return id < this.hashOf.length && this.delete(this.hashOf[id] as number, id);
  }

  /** The first id under `hash` that `accept` takes, or -1. */
  find(hash: number, accept: (id: number) => boolean): number {
    const ids = this.ids;
    const mask = ids.length - 1;
    for (let slot = hash & mask; ids[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const id = ids[slot] as number;
      if (this.hashOf[id] === hash && accept(id)) return id;
    }
    return -1;
  }

  /** Appends to `out` the ids under `hash` that `accept` takes, in the order they were filed. */
  collect(hash: number, accept: (id: number) => boolean, out: number[]): number[] {
    const ids = this.ids;
    const mask = ids.length - 1;
    for (let slot = hash & mask; ids[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const id = ids[slot] as number;
      if (this.hashOf[id] === hash && accept(id)) out.push(id);
    }
    return out;
  }

  /** Makes room for `count` more ids at once, so the table grows at most once for them. */
  reserve(count: number): void {
    let size = this.ids.length;
    while ((this.count + count) * 4 > size * 3) size *= 2;
    if (size > this.ids.length) this.resize(size);
  }

  private place(hash: number, id: number): void {
    const mask = this.ids.length - 1;
    let slot = hash & mask;
    while (this.ids[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.ids[slot] = id;
  }

  /**
   * Empties `hole` and moves later entries of its run back into it where their home allows, so
   * no tombstones are needed and entries of one hash stay in filing order.
   */
  private shiftBack(hole: number): void {
    const ids = this.ids;
    const mask = ids.length - 1;
    let free = hole;
    for (let slot = (hole + 1) & mask; ids[slot] !== EMPTY; slot = (slot + 1) & mask) {
      const home = (this.hashOf[ids[slot] as number] as number) & mask;
      // the entry may move to `free` unless its home lies cyclically in (free, slot]
      const stays = free <= slot ? free < home && home <= slot : free < home || home <= slot;
      if (stays) continue;
      ids[free] = ids[slot] as number;
      free = slot;
    }
    ids[free] = EMPTY;
  }

  private resize(size = this.ids.length * 2): void {
    const oldIds = this.ids;
    this.ids = new Int32Array(size).fill(EMPTY);
    // start after an empty slot, so a run that wraps round the end is re-filed in probe order
    const mask = oldIds.length - 1;
    const start = oldIds.indexOf(EMPTY);
    for (let step = 1; step <= oldIds.length; step += 1) {
      const slot = (start + step) & mask;
      const id = oldIds[slot] as number;
      if (id !== EMPTY) this.place(this.hashOf[id] as number, id);
    }
  }
}
