/**
 * Document ids filed under a 32-bit hash of a key, with no key stored: the keys (a tool's name,
 * lowercased name, name suffix or name phrase) can be rebuilt from the tool itself, so a lookup
 * confirms each id whose hash matches against the real key. Two typed arrays replace a Map entry
 * and a string per tool, which kept about 70 bytes of heap (and a full-collection cost) per tool.
 */

import { HASH_SEED, hashStep } from "./piece-table.js";
import { SnapshotProblem, type SnapshotReader, type SnapshotWriter } from "./snapshot-format.js";

const EMPTY = -1;

/** A table as a snapshot holds it, checked by `readHashedIds`. */
export interface SavedHashedIds {
  slots: Int32Array<ArrayBuffer>;
  hashes: Int32Array<ArrayBuffer>;
  count: number;
}

/** FNV-1a hash of `text.slice(start)`; `seed` is the basis (`HASH_SEED` unless a table adopted a saved one). */
export function hashFrom(text: string, start = 0, seed = HASH_SEED): number {
  let hash = seed;
  for (let index = start; index < text.length; index += 1) {
    hash = hashStep(hash, text.charCodeAt(index));
  }
  return hash;
}

/**
 * FNV-1a hash of `text.slice(start).toLowerCase()`, folding ASCII letters in place (no string is
 * made unless the text has a non-ASCII character).
 */
export function lowerHashFrom(text: string, start = 0, seed = HASH_SEED): number {
  let hash = seed;
  for (let index = start; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code >= 128) return hashFrom(text.slice(start).toLowerCase(), 0, seed);
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

  /**
   * Writes the table as it is (slots and the hash of each id below `idLimit`) under `name`, so a
   * restore files nothing: the hashes only mean something with the seed they were made with,
   * which the caller saves beside them.
   */
  save(writer: SnapshotWriter, name: string, idLimit: number): void {
    writer.array(`${name}Slots`, "i32", this.ids);
    writer.array(`${name}Hashes`, "i32", this.hashOf.subarray(0, idLimit));
    writer.value(`${name}Count`, this.count);
  }

  /** Takes a table read by `readHashedIds` as it is (into an empty table). */
  restore(saved: SavedHashedIds): void {
    this.ids = saved.slots;
    this.hashOf = saved.hashes;
    this.count = saved.count;
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

/**
 * Reads and checks a table saved by `HashedIds.save` for ids below `idLimit`: a power-of-two slot
 * count with at least one empty slot (so no probe runs forever), each id in range and filed once,
 * as many as the saved count. A hash that does not match its key could only cost a hit (every
 * lookup confirms its ids); the snapshot's checksum is what catches damage to those.
 */
/**
 * The number of ids a table's slots file, or -1 when one is out of range or filed twice. A
 * function of its own so its loop is all V8 optimises mid-run (on-stack): with the checks after
 * it in the same function, the optimised code met them without type feedback and was thrown
 * away at the end of each of the five tables a restore reads, so every table's loop started
 * over in the interpreter.
 */
function countFiled(slots: Int32Array, idLimit: number): number {
  const seen = new Uint8Array(idLimit);
  let filed = 0;
  for (let slot = 0; slot < slots.length; slot += 1) {
    const id = slots[slot] as number;
    if (id === EMPTY) continue;
    if (id < 0 || id >= idLimit || seen[id] === 1) return -1;
    seen[id] = 1;
    filed += 1;
  }
  return filed;
}

export function readHashedIds(
  reader: SnapshotReader,
  name: string,
  idLimit: number,
): SavedHashedIds {
  const slots = reader.i32(`${name}Slots`);
  const hashes = reader.i32(`${name}Hashes`);
  const count = reader.value(`${name}Count`);
  const size = slots.length;
  if (size < 4 || (size & (size - 1)) !== 0 || hashes.length !== idLimit || count * 4 > size * 3) {
    throw new SnapshotProblem(`its table "${name}" is mis-sized`);
  }
  const filed = countFiled(slots, idLimit);
  if (filed < 0) throw new SnapshotProblem(`its table "${name}" files an id out of range or twice`);
  if (filed !== count)
    throw new SnapshotProblem(`its table "${name}" holds ${filed} ids, not ${count}`);
  return { slots, hashes, count };
}
