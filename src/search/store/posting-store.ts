/**
 * Typed-array postings for BM25F. Each term owns one growable Uint32Array of interleaved
 * `[docId, packedTf]` pairs, where `packedTf` holds a 4-bit term frequency per field (8 fields).
 * Removal tombstones a document; postings are compacted lazily and only then is its id reused.
 */

import { COMPOUND_SEGMENT, type EncodedTool } from "./encoded-tool.js";
import { FIELD_COUNT, fieldTf, NAME_TF_MASK, TF_BITS, TF_MASK } from "./fields.js";
import { NO_POSTINGS, type PendingPostings } from "./pending-postings.js";
import { SnapshotProblem, type SnapshotReader, type SnapshotWriter } from "./snapshot-format.js";
import { readVocabulary, type SavedVocabulary, Vocabulary } from "./vocabulary.js";

/** The posting store as a snapshot holds it, checked and ready to restore. */
export interface SavedStore {
  vocabulary: SavedVocabulary;
  /** Start of each term's postings in `postings` (one more entry than terms). */
  offsets: Uint32Array<ArrayBuffer>;
  postings: Uint32Array<ArrayBuffer>;
  docFrequency: Int32Array<ArrayBuffer>;
  nameFrequency: Int32Array<ArrayBuffer>;
  alive: Uint8Array<ArrayBuffer>;
  fieldLength: Float32Array<ArrayBuffer>;
  fieldLengthSum: Float64Array<ArrayBuffer>;
  freeIds: Int32Array<ArrayBuffer>;
  pendingFree: Int32Array<ArrayBuffer>;
  counts: { nextId: number; liveCount: number; livePostings: number; deadPostings: number };
}

/** Name segments first (so the name terms lead), then the other fields. */
const SEGMENT_ORDER = [0, COMPOUND_SEGMENT, 1, 2, 3, 4, 5, 6, 7] as const;

/**
 * BM25's term-frequency saturation `(k1 + 1) · tf / (k1 + tf)` of a field-weighted frequency: the
 * one definition the cached contributions and the score explanations both use.
 */
export function saturate(weighted: number, k1: number): number {
  return ((k1 + 1) * weighted) / (k1 + weighted);
}

/** Per-field weight and length normalisation used when scoring. */
export interface FieldParameters {
  weights: readonly number[];
  b: readonly number[];
  /** BM25 saturation constant. */
  k1: number;
}

function grow<T extends Uint32Array | Float32Array | Uint8Array | Float64Array>(
  array: T,
  size: number,
): T {
  if (array.length >= size) return array;
  // 1.5× growth: less slack than doubling, still amortised O(1) appends
  let capacity = Math.max(4, array.length);
  while (capacity < size) capacity = Math.ceil((capacity * 3) / 2);
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
}

/** A copy of `array` with room for `capacity` items. */
function resized<T extends Uint32Array | Int32Array | Uint8Array | Float32Array>(
  array: T,
  capacity: number,
): T {
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
}

/**
 * Stands in for a restored term's list until it is first read (`postingList`): a restore made
 * one typed array per term (6,375 for the real catalogs, ~1.4 µs each in a fresh process),
 * where a search reads the lists of a few terms.
 */
const UNREAD = new Uint32Array(0);

/** The inverted index: vocabulary, postings, per-document field lengths and tombstones. */
export class PostingStore extends Vocabulary {
  /** Each term's list; `UNREAD` for a restored term not read yet (read through `postingList`). */
  private lists: Uint32Array[] = [];
  /** The restored lists not made yet: their offsets and the snapshot's postings section. */
  private unread: { offsets: Uint32Array; postings: Uint32Array } | undefined;
  /** Used length of each term's list (two per posting). */
  postingLength = new Int32Array(0);
  docFrequency = new Int32Array(0);
  /** Number of live documents whose name field holds the term. */
  nameFrequency = new Int32Array(0);
  alive = new Uint8Array(0);
  fieldLength = new Float32Array(0);
  /** `weight / (1 - b + b * length / average)` per doc and field; refreshed when averages drift. */
  fieldNorm = new Float32Array(0);
  private termMark = new Uint32Array(0);
  private termPacked = new Uint32Array(0);
  private distinct = new Int32Array(64);
  private addStamp = 0;
  private readonly fieldLengthSum = new Float64Array(FIELD_COUNT);
  private freeIds: number[] = [];
  private pendingFree: number[] = [];
  private deadPostings = 0;
  private livePostings = 0;
  /** Bumped on every change; norms and cached contributions follow it lazily. */
  private version = 0;
  private normVersion = -1;
  private saturated: (Float32Array | undefined)[] = [];
  private saturatedVersion: number[] = [];
  liveCount = 0;
  nextId = 0;

  constructor(private readonly params: FieldParameters) {
    super();
  }

  /** A term's posting list: `[doc, packedTf]` pairs, the first `postingLength[term]` items used. */
  postingList(term: number): Uint32Array | undefined {
    const list = this.lists[term];
    return list !== UNREAD ? list : this.readList(term);
  }

  /** Makes a restored term's list: a view into the snapshot at its exact size. */
  private readList(term: number): Uint32Array {
    const { offsets, postings } = this.unread as { offsets: Uint32Array; postings: Uint32Array };
    const start = offsets[term] as number;
    const end = offsets[term + 1] as number;
    const list = end > start ? postings.subarray(start, end) : NO_POSTINGS;
    this.lists[term] = list;
    return list;
  }

  /** Makes every restored list not read yet, before a change that writes or moves lists. */
  private readAllLists(): void {
    if (this.unread === undefined) return;
    for (let term = 0; term < this.lists.length; term += 1) {
      if (this.lists[term] === UNREAD) this.readList(term);
    }
    this.unread = undefined;
  }

  /** True while removed documents still have postings (scoring must skip them). */
  get hasDead(): boolean {
    return this.deadPostings > 0;
  }

  /**
   * Adds one document given its encoded term ids (see `EncodedTool`: segments 0–7 are the fields,
   * segment 8 more name terms); returns its id. With `pending`, its postings are held there until
   * `writePending` (a bulk add); nothing may read or remove postings in between.
   */
  addEncoded(encoded: EncodedTool, pending?: PendingPostings): number {
    this.readAllLists();
    const { ids, bounds } = encoded;
    const id = this.freeIds.pop() ?? this.nextId++;
    this.ensureDocCapacity(id + 1);
    // distinct terms of this document, with their packed per-field frequencies, in scratch arrays
    this.addStamp = (this.addStamp % 0xfffffff0) + 1;
    const stamp = this.addStamp;
    const termMark = this.termMark;
    const termPacked = this.termPacked;
    if (this.distinct.length < ids.length) this.distinct = new Int32Array(ids.length * 2);
    const distinct = this.distinct;
    let distinctCount = 0;
    for (const segment of SEGMENT_ORDER) {
      const field = segment === COMPOUND_SEGMENT ? 0 : segment;
      const start = bounds[segment] as number;
      const end = bounds[segment + 1] as number;
      this.fieldLength[id * FIELD_COUNT + field] =
        (segment === COMPOUND_SEGMENT ? (this.fieldLength[id * FIELD_COUNT] as number) : 0) +
        end -
        start;
      this.fieldLengthSum[field] = (this.fieldLengthSum[field] as number) + end - start;
      const shift = TF_BITS * field;
      const unit = 1 << shift;
      for (let index = start; index < end; index += 1) {
        const term = ids[index] as number;
        if (termMark[term] !== stamp) {
          termMark[term] = stamp;
          termPacked[term] = 0;
          distinct[distinctCount++] = term;
        }
        const current = termPacked[term] as number;
        if (fieldTf(current, field) < TF_MASK) termPacked[term] = current + unit;
      }
    }
    for (let index = 0; index < distinctCount; index += 1) {
      const term = distinct[index] as number;
      const packed = termPacked[term] as number;
      if (pending === undefined) this.appendPosting(term, id, packed);
      else {
        pending.push(term, id, packed);
        this.docFrequency[term] = (this.docFrequency[term] as number) + 1;
      }
      if ((packed & NAME_TF_MASK) !== 0) {
        this.nameFrequency[term] = (this.nameFrequency[term] ?? 0) + 1;
        if (this.everNamed[term] !== 1) this.noteNamed(term);
      }
    }
    this.alive[id] = 1;
    this.liveCount += 1;
    this.livePostings += distinctCount;
    this.version += 1;
    return id;
  }

  /**
   * Writes the postings a bulk add held in `pending` into the posting lists; with `pack`, all
   * lists move into one buffer at their exact sizes (for a batch as big as the rest of the index).
   */
  writePending(pending: PendingPostings, pack = false): void {
    this.readAllLists();
    pending.drain(this.lists, this.postingLength, pack);
    this.version += 1;
  }

  /**
   * Tombstones a document; its postings go at the next compaction. `encoded` must be the term ids
   * it was added with (the caller re-encodes the tool, so the store keeps no per-document lists).
   */
  remove(id: number, encoded: EncodedTool): void {
    if (this.alive[id] !== 1) return;
    const { ids, bounds } = encoded;
    this.addStamp = (this.addStamp % 0xfffffff0) + 1;
    const stamp = this.addStamp;
    let distinct = 0;
    // the name segments come first, so a term seen there first is a name term of this document
    for (const segment of SEGMENT_ORDER) {
      const end = bounds[segment + 1] as number;
      for (let index = bounds[segment] as number; index < end; index += 1) {
        const term = ids[index] as number;
        if (this.termMark[term] === stamp) continue;
        this.termMark[term] = stamp;
        distinct += 1;
        this.docFrequency[term] = (this.docFrequency[term] ?? 1) - 1;
        if (segment === 0 || segment === COMPOUND_SEGMENT) {
          this.nameFrequency[term] = (this.nameFrequency[term] ?? 1) - 1;
        }
      }
    }
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      this.fieldLengthSum[field] =
        (this.fieldLengthSum[field] ?? 0) - (this.fieldLength[id * FIELD_COUNT + field] ?? 0);
    }
    this.alive[id] = 0;
    this.liveCount -= 1;
    this.livePostings -= distinct;
    this.deadPostings += distinct;
    this.pendingFree.push(id);
    this.version += 1;
    if (this.deadPostings > 4096 && this.deadPostings > this.livePostings / 4) this.compact();
  }

  /** Drops the postings of removed documents and frees their ids for reuse. */
  compact(): void {
    this.readAllLists();
    const alive = this.alive;
    for (let term = 0; term < this.lists.length; term += 1) {
      const list = this.lists[term];
      const length = this.postingLength[term] ?? 0;
      if (list === undefined || length === 0) continue;
      let write = 0;
      for (let read = 0; read < length; read += 2) {
        const doc = list[read] ?? 0;
        if (alive[doc] !== 1) continue;
        list[write] = doc;
        list[write + 1] = list[read + 1] ?? 0;
        write += 2;
      }
      this.postingLength[term] = write;
    }
    for (const id of this.pendingFree) this.freeIds.push(id);
    // reuse low ids first so the dense arrays stay compact
    this.freeIds.sort((a, b) => b - a);
    this.pendingFree = [];
    this.deadPostings = 0;
    this.version += 1;
  }

  /** Average length of a field over live documents (at least 1). */
  averageLength(field: number): number {
    if (this.liveCount === 0) return 1;
    return Math.max(1, (this.fieldLengthSum[field] ?? 0) / this.liveCount);
  }

  /** Recomputes every document's field norms after any change, so scores never depend on history. */
  ensureNorms(): void {
    if (this.normVersion === this.version) return;
    for (let id = 0; id < this.nextId; id += 1) if (this.alive[id] === 1) this.refreshNorm(id);
    this.normVersion = this.version;
  }

  /**
   * The saturated BM25F term-frequency part `(k1 + 1) · tf / (k1 + tf)` of each posting of a term
   * (without idf), computed once per index version and cached, so a query only multiplies and adds.
   */
  contributions(term: number): Float32Array {
    this.ensureNorms();
    const cached = this.saturated[term];
    const length = this.postingLength[term] ?? 0;
    if (cached !== undefined && this.saturatedVersion[term] === this.version) return cached;
    const list = this.postingList(term) as Uint32Array;
    const out =
      cached !== undefined && cached.length >= length / 2
        ? cached
        : new Float32Array(list.length / 2);
    const norm = this.fieldNorm;
    const k1 = this.params.k1;
    for (let index = 0; index < length; index += 2) {
      let packed = list[index + 1] as number;
      let base = (list[index] as number) * FIELD_COUNT;
      let weighted = 0;
      while (packed !== 0) {
        const tf = packed & TF_MASK;
        if (tf !== 0) weighted += tf * (norm[base] as number);
        packed >>>= TF_BITS;
        base += 1;
      }
      out[index >> 1] = saturate(weighted, k1);
    }
    this.saturated[term] = out;
    this.saturatedVersion[term] = this.version;
    return out;
  }

  private refreshNorm(id: number): void {
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const b = this.params.b[field] ?? 0.75;
      const weight = this.params.weights[field] ?? 1;
      const ratio = (this.fieldLength[id * FIELD_COUNT + field] ?? 0) / this.averageLength(field);
      this.fieldNorm[id * FIELD_COUNT + field] = weight / (1 - b + b * ratio);
    }
  }

  protected override termsRestored(count: number): void {
    // one allocation per array at a bulk add's slack, instead of growing term by term
    this.growTerms(Math.max(1024, Math.ceil(count * 1.5)));
  }

  protected override termAdded(term: number): void {
    this.lists.push(NO_POSTINGS);
    if (term < this.termMark.length) return;
    this.growTerms(Math.max(1024, Math.ceil(this.termMark.length * 1.5)));
  }

  private growTerms(capacity: number): void {
    this.termMark = resized(this.termMark, capacity);
    this.termPacked = resized(this.termPacked, capacity);
    this.postingLength = resized(this.postingLength, capacity);
    this.docFrequency = resized(this.docFrequency, capacity);
    this.nameFrequency = resized(this.nameFrequency, capacity);
  }

  private appendPosting(term: number, doc: number, tf: number): void {
    const length = this.postingLength[term] as number;
    let list = this.lists[term] as Uint32Array;
    if (list.length < length + 2) {
      list = grow(list, length + 2);
      this.lists[term] = list;
    }
    list[length] = doc;
    list[length + 1] = tf;
    this.postingLength[term] = length + 2;
    this.docFrequency[term] = (this.docFrequency[term] ?? 0) + 1;
  }

  /** Writes the vocabulary, postings and per-document arrays (as they are) into a snapshot. */
  save(writer: SnapshotWriter): void {
    this.saveVocabulary(writer);
    const termCount = this.terms.length;
    const offsets = new Uint32Array(termCount + 1);
    for (let term = 0; term < termCount; term += 1) {
      offsets[term + 1] = (offsets[term] as number) + (this.postingLength[term] as number);
    }
    const postings = new Uint32Array(offsets[termCount] as number);
    for (let term = 0; term < termCount; term += 1) {
      const length = this.postingLength[term] as number;
      if (length > 0) {
        postings.set((this.postingList(term) as Uint32Array).subarray(0, length), offsets[term]);
      }
    }
    writer.array("postingOffsets", "u32", offsets);
    writer.array("postings", "u32", postings);
    writer.array("docFrequency", "i32", this.docFrequency.subarray(0, termCount));
    writer.array("nameFrequency", "i32", this.nameFrequency.subarray(0, termCount));
    writer.array("alive", "u8", this.alive.subarray(0, this.nextId));
    writer.array("fieldLength", "f32", this.fieldLength.subarray(0, this.nextId * FIELD_COUNT));
    writer.array("fieldLengthSum", "f64", this.fieldLengthSum);
    writer.array("freeIds", "i32", Int32Array.from(this.freeIds));
    writer.array("pendingFree", "i32", Int32Array.from(this.pendingFree));
    writer.value("nextId", this.nextId);
    writer.value("liveCount", this.liveCount);
    writer.value("livePostings", this.livePostings);
    writer.value("deadPostings", this.deadPostings);
  }

  /**
   * Fills an empty store from a snapshot checked by `readStore`. Posting lists are views into
   * the snapshot's buffer at their exact sizes (as after a bulk add), so nothing is copied; each
   * is made when first read (`postingList`), or all at once before the first change.
   */
  restore(saved: SavedStore): void {
    this.restoreVocabulary(saved.vocabulary);
    const { offsets, postings } = saved;
    const termCount = this.terms.length;
    this.lists = new Array<Uint32Array>(termCount).fill(UNREAD);
    this.unread = { offsets, postings };
    for (let term = 0; term < termCount; term += 1) {
      this.postingLength[term] = (offsets[term + 1] as number) - (offsets[term] as number);
    }
    this.docFrequency.set(saved.docFrequency);
    this.nameFrequency.set(saved.nameFrequency);
    const { nextId } = saved.counts;
    this.alive = saved.alive;
    this.fieldLength = saved.fieldLength;
    this.fieldNorm = new Float32Array(nextId * FIELD_COUNT);
    this.fieldLengthSum.set(saved.fieldLengthSum);
    this.freeIds = Array.from(saved.freeIds);
    this.pendingFree = Array.from(saved.pendingFree);
    this.nextId = nextId;
    this.liveCount = saved.counts.liveCount;
    this.livePostings = saved.counts.livePostings;
    this.deadPostings = saved.counts.deadPostings;
    this.version += 1;
  }

  /** Makes room for `count` more documents at once (a bulk add), so the arrays grow exactly once. */
  reserveDocs(count: number): void {
    const size = this.nextId + count;
    if (this.alive.length >= size) return;
    this.alive = resized(this.alive, size);
    this.fieldLength = resized(this.fieldLength, size * FIELD_COUNT);
    this.fieldNorm = resized(this.fieldNorm, size * FIELD_COUNT);
  }

  private ensureDocCapacity(size: number): void {
    this.alive = grow(this.alive, size);
    this.fieldLength = grow(this.fieldLength, size * FIELD_COUNT);
    this.fieldNorm = grow(this.fieldNorm, size * FIELD_COUNT);
  }
}

/** Reads and checks the store's sections of a snapshot, without changing anything. */
export function readStore(reader: SnapshotReader): SavedStore {
  const vocabulary = readVocabulary(reader);
  const termCount = vocabulary.terms.length;
  const counts = {
    nextId: reader.value("nextId"),
    liveCount: reader.value("liveCount"),
    livePostings: reader.value("livePostings"),
    deadPostings: reader.value("deadPostings"),
  };
  const { nextId } = counts;
  const saved: SavedStore = {
    vocabulary,
    counts,
    offsets: reader.u32("postingOffsets"),
    postings: reader.u32("postings"),
    docFrequency: reader.i32("docFrequency"),
    nameFrequency: reader.i32("nameFrequency"),
    alive: reader.u8("alive"),
    fieldLength: reader.f32("fieldLength"),
    fieldLengthSum: reader.f64("fieldLengthSum"),
    freeIds: reader.i32("freeIds"),
    pendingFree: reader.i32("pendingFree"),
  };
  const sized =
    saved.offsets.length === termCount + 1 &&
    saved.docFrequency.length === termCount &&
    saved.nameFrequency.length === termCount &&
    saved.alive.length === nextId &&
    saved.fieldLength.length === nextId * FIELD_COUNT &&
    saved.fieldLengthSum.length === FIELD_COUNT &&
    saved.offsets[termCount] === saved.postings.length;
  if (!sized) throw new SnapshotProblem("its arrays do not match its term and tool counts");
  checkPostings(saved, nextId);
  for (const id of [...saved.freeIds, ...saved.pendingFree]) {
    if (id < 0 || id >= nextId) throw new SnapshotProblem("its free ids are out of range");
  }
  return saved;
}

/** Offsets ascend, lists hold whole pairs, and every posting names a document below `nextId`. */
function checkPostings(saved: SavedStore, nextId: number): void {
  const term = firstMalformedList(saved.offsets);
  if (term >= 0) throw new SnapshotProblem(`its posting list of term ${term} is malformed`);
  if (!docsBelow(saved.postings, nextId)) {
    throw new SnapshotProblem("a posting names a tool outside the index");
  }
}

// each loop in a function of its own: optimised mid-loop, the second loop of one function met
// code without type feedback and was thrown back to the interpreter (see `countFiled`)

/** The first term whose list bounds are reversed or odd, or -1. */
function firstMalformedList(offsets: Uint32Array): number {
  for (let term = 0; term + 1 < offsets.length; term += 1) {
    const start = offsets[term] as number;
    const end = offsets[term + 1] as number;
    if (end < start || (end - start) % 2 !== 0) return term;
  }
  return -1;
}

/** True when every posting's document id is below `nextId`. */
function docsBelow(postings: Uint32Array, nextId: number): boolean {
  for (let index = 0; index < postings.length; index += 2) {
    if ((postings[index] as number) >= nextId) return false;
  }
  return true;
}
