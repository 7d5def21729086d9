/**
 * Typed-array postings for BM25F. Each term owns one growable Uint32Array of interleaved
 * `[docId, packedTf]` pairs, where `packedTf` holds a 4-bit term frequency per field (8 fields).
 * Removal tombstones a document; postings are compacted lazily and only then is its id reused.
 */

import { stem } from "../text/index.js";
import { FIELD_COUNT } from "./fields.js";
import { letterMask } from "./nearest-names.js";
import { NO_POSTINGS, type PendingPostings } from "./pending-postings.js";
import { COMPOUND_SEGMENT, type EncodedTool } from "./term-encoder.js";

/** Name segments first (so the name terms lead), then the other fields. */
const SEGMENT_ORDER = [0, COMPOUND_SEGMENT, 1, 2, 3, 4, 5, 6, 7] as const;

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

/** The first two UTF-16 code units of a text (at least two long) as one number. */
function prefixKey(text: string): number {
  return text.charCodeAt(0) * 65536 + text.charCodeAt(1);
}

/** The inverted index: vocabulary, postings, per-document field lengths and tombstones. */
export class PostingStore {
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  /** Term ids by Porter stem; a lone id is kept bare (most groups, e.g. every number, have one). */
  private readonly stemGroups = new Map<string, number | number[]>();
  postings: Uint32Array[] = [];
  postingLength: number[] = [];
  docFrequency: number[] = [];
  /** Number of live documents whose name field holds the term. */
  nameFrequency: number[] = [];
  /** Vocabulary terms by their first two characters (`~` compounds left out), for prefix lookups. */
  private readonly prefixBuckets = new Map<number, number[]>();
  /** Terms that have occurred in a name, by length (for suggestions); check `nameFrequency`. */
  private readonly namedByLength: number[][] = [];
  /** The same for all-digit terms (ids numbered per tool are common), kept apart. */
  private readonly namedNumbersByLength: number[][] = [];
  private everNamed = new Uint8Array(0);
  /** `letterMask` of each term that has occurred in a name (a cheap edit-distance bound). */
  namedMask = new Int32Array(0);
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

  constructor(private readonly params: FieldParameters) {}

  /** True while removed documents still have postings (scoring must skip them). */
  get hasDead(): boolean {
    return this.deadPostings > 0;
  }

  /** The id of a term, or -1 when it is not in the vocabulary. */
  termId(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  /**
   * Adds one document given its encoded term ids (see `EncodedTool`: segments 0–7 are the fields,
   * segment 8 more name terms); returns its id. With `pending`, its postings are held there until
   * `writePending` (a bulk add); nothing may read or remove postings in between.
   */
  addEncoded(encoded: EncodedTool, pending?: PendingPostings): number {
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
      const shift = 4 * field;
      const unit = 1 << shift;
      for (let index = start; index < end; index += 1) {
        const term = ids[index] as number;
        if (termMark[term] !== stamp) {
          termMark[term] = stamp;
          termPacked[term] = 0;
          distinct[distinctCount++] = term;
        }
        const current = termPacked[term] as number;
        if (((current >>> shift) & 15) < 15) termPacked[term] = current + unit;
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
      // the name field is field 0, the lowest nibble
      if ((packed & 15) !== 0) {
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
    pending.drain(this.postings, this.postingLength, pack);
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
    const alive = this.alive;
    for (let term = 0; term < this.postings.length; term += 1) {
      const list = this.postings[term];
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
    const list = this.postings[term] as Uint32Array;
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
        const tf = packed & 15;
        if (tf !== 0) weighted += tf * (norm[base] as number);
        packed >>>= 4;
        base += 1;
      }
      out[index >> 1] = ((k1 + 1) * weighted) / (k1 + weighted);
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

  /** Vocabulary terms starting with `prefix` (at least two characters), in no particular order. */
  termsWithPrefix(prefix: string, visit: (term: number, text: string) => void): void {
    if (prefix.length < 2) return;
    for (const term of this.prefixBuckets.get(prefixKey(prefix)) ?? []) {
      const text = this.terms[term] as string;
      if (text.startsWith(prefix)) visit(term, text);
    }
  }

  /**
   * Terms of this length that have occurred in a name (some may no longer: check `nameFrequency`),
   * all-digit ones or the others.
   */
  namedTermsOfLength(length: number, digits: boolean): readonly number[] {
    return (digits ? this.namedNumbersByLength : this.namedByLength)[length] ?? [];
  }

  private noteNamed(term: number): void {
    this.everNamed[term] = 1;
    const text = this.terms[term] as string;
    this.namedMask[term] = letterMask(text);
    if (text.startsWith("~")) return;
    const buckets = /^[0-9]+$/.test(text) ? this.namedNumbersByLength : this.namedByLength;
    while (buckets.length <= text.length) buckets.push([]);
    buckets[text.length]?.push(term);
  }

  /** Ids of the vocabulary terms whose Porter stem is `stemmed`. */
  stemGroup(stemmed: string): readonly number[] {
    const group = this.stemGroups.get(stemmed);
    if (group === undefined) return [];
    if (typeof group !== "number") return group;
    const list = [group];
    this.stemGroups.set(stemmed, list);
    return list;
  }

  /** The id of a term, added to the vocabulary when new. */
  intern(token: string): number {
    let term = this.termIds.get(token);
    if (term === undefined) {
      term = this.terms.length;
      const stemmed = stem(token);
      const group = this.stemGroups.get(stemmed);
      if (group === undefined) this.stemGroups.set(stemmed, term);
      else if (typeof group === "number") this.stemGroups.set(stemmed, [group, term]);
      else group.push(term);
      this.termIds.set(token, term);
      this.terms.push(token);
      if (token.length >= 2 && !token.startsWith("~")) {
        const key = prefixKey(token);
        const bucket = this.prefixBuckets.get(key);
        if (bucket) bucket.push(term);
        else this.prefixBuckets.set(key, [term]);
      }
      this.postings.push(NO_POSTINGS);
      this.postingLength.push(0);
      this.docFrequency.push(0);
      this.nameFrequency.push(0);
      if (term >= this.termMark.length) {
        this.termMark = grow(this.termMark, term + 1);
        const packed = new Uint32Array(this.termMark.length);
        packed.set(this.termPacked);
        this.termPacked = packed;
        const named = new Uint8Array(this.termMark.length);
        named.set(this.everNamed);
        this.everNamed = named;
        const masks = new Int32Array(this.termMark.length);
        masks.set(this.namedMask);
        this.namedMask = masks;
      }
    }
    return term;
  }

  private appendPosting(term: number, doc: number, tf: number): void {
    const length = this.postingLength[term] as number;
    let list = this.postings[term] as Uint32Array;
    if (list.length < length + 2) {
      list = grow(list, length + 2);
      this.postings[term] = list;
    }
    list[length] = doc;
    list[length + 1] = tf;
    this.postingLength[term] = length + 2;
    this.docFrequency[term] = (this.docFrequency[term] ?? 0) + 1;
  }

  private ensureDocCapacity(size: number): void {
    this.alive = grow(this.alive, size);
    this.fieldLength = grow(this.fieldLength, size * FIELD_COUNT);
    this.fieldNorm = grow(this.fieldNorm, size * FIELD_COUNT);
  }
}
