/**
 * Typed-array postings for BM25F. Each term owns one growable Uint32Array of interleaved
 * `[docId, packedTf]` pairs, where `packedTf` holds a 4-bit term frequency per field (8 fields).
 * Removal tombstones a document; postings are compacted lazily and only then is its id reused.
 */

import { FIELD_COUNT } from "./fields.js";

const NIBBLE = Array.from({ length: FIELD_COUNT }, (_, field) => 2 ** (4 * field));

/** Per-field weight and length normalisation used when scoring. */
export interface FieldParameters {
  weights: readonly number[];
  b: readonly number[];
}

function grow<T extends Uint32Array | Float32Array | Uint8Array>(array: T, size: number): T {
  if (array.length >= size) return array;
  let capacity = Math.max(8, array.length);
  while (capacity < size) capacity *= 2;
  const next = new (array.constructor as new (length: number) => T)(capacity);
  next.set(array);
  return next;
}

/** The inverted index: vocabulary, postings, per-document field lengths and tombstones. */
export class PostingStore {
  readonly termIds = new Map<string, number>();
  readonly terms: string[] = [];
  postings: Uint32Array[] = [];
  postingLength: number[] = [];
  docFrequency: number[] = [];
  alive = new Uint8Array(0);
  fieldLength = new Float32Array(0);
  /** `weight / (1 - b + b * length / average)` per doc and field; refreshed when averages drift. */
  fieldNorm = new Float32Array(0);
  private docTerms: (Uint32Array | undefined)[] = [];
  private readonly fieldLengthSum = new Float64Array(FIELD_COUNT);
  private freeIds: number[] = [];
  private pendingFree: number[] = [];
  private deadPostings = 0;
  private livePostings = 0;
  private normCount = -1;
  liveCount = 0;
  nextId = 0;

  constructor(private readonly params: FieldParameters) {}

  /** The id of a term, or -1 when it is not in the vocabulary. */
  termId(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  /** Adds one document given its tokens per field; returns its id. */
  add(fieldTokens: readonly (readonly string[])[]): number {
    const id = this.freeIds.pop() ?? this.nextId++;
    this.ensureDocCapacity(id + 1);
    const packed = new Map<number, number>();
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const tokens = fieldTokens[field] ?? [];
      this.fieldLength[id * FIELD_COUNT + field] = tokens.length;
      this.fieldLengthSum[field] = (this.fieldLengthSum[field] ?? 0) + tokens.length;
      const unit = NIBBLE[field] ?? 1;
      for (const token of tokens) {
        const term = this.internTerm(token);
        const current = packed.get(term) ?? 0;
        if (Math.floor(current / unit) % 16 < 15) packed.set(term, current + unit);
      }
    }
    const termList = new Uint32Array(packed.size);
    let index = 0;
    for (const [term, tf] of packed) {
      termList[index++] = term;
      this.appendPosting(term, id, tf);
    }
    this.docTerms[id] = termList;
    this.alive[id] = 1;
    this.liveCount += 1;
    this.livePostings += termList.length;
    this.refreshNorm(id);
    return id;
  }

  /** Tombstones a document; its postings go at the next compaction. */
  remove(id: number): void {
    const termList = this.docTerms[id];
    if (termList === undefined || this.alive[id] !== 1) return;
    for (const term of termList) this.docFrequency[term] = (this.docFrequency[term] ?? 1) - 1;
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      this.fieldLengthSum[field] =
        (this.fieldLengthSum[field] ?? 0) - (this.fieldLength[id * FIELD_COUNT + field] ?? 0);
    }
    this.alive[id] = 0;
    this.docTerms[id] = undefined;
    this.liveCount -= 1;
    this.livePostings -= termList.length;
    this.deadPostings += termList.length;
    this.pendingFree.push(id);
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
  }

  /** Average length of a field over live documents (at least 1). */
  averageLength(field: number): number {
    if (this.liveCount === 0) return 1;
    return Math.max(1, (this.fieldLengthSum[field] ?? 0) / this.liveCount);
  }

  /** Recomputes every document's field norms when the collection grew or shrank by over 10%. */
  ensureNorms(): void {
    if (this.normCount >= 0 && Math.abs(this.liveCount - this.normCount) <= this.normCount * 0.1) {
      return;
    }
    for (let id = 0; id < this.nextId; id += 1) if (this.alive[id] === 1) this.refreshNorm(id);
    this.normCount = this.liveCount;
  }

  private refreshNorm(id: number): void {
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const b = this.params.b[field] ?? 0.75;
      const weight = this.params.weights[field] ?? 1;
      const ratio = (this.fieldLength[id * FIELD_COUNT + field] ?? 0) / this.averageLength(field);
      this.fieldNorm[id * FIELD_COUNT + field] = weight / (1 - b + b * ratio);
    }
  }

  private internTerm(token: string): number {
    let term = this.termIds.get(token);
    if (term === undefined) {
      term = this.terms.length;
      this.termIds.set(token, term);
      this.terms.push(token);
      this.postings.push(new Uint32Array(2));
      this.postingLength.push(0);
      this.docFrequency.push(0);
    }
    return term;
  }

  private appendPosting(term: number, doc: number, tf: number): void {
    const length = this.postingLength[term] ?? 0;
    const list = grow(this.postings[term] ?? new Uint32Array(2), length + 2);
    list[length] = doc;
    list[length + 1] = tf;
    this.postings[term] = list;
    this.postingLength[term] = length + 2;
    this.docFrequency[term] = (this.docFrequency[term] ?? 0) + 1;
  }

  private ensureDocCapacity(size: number): void {
    this.alive = grow(this.alive, size);
    this.fieldLength = grow(this.fieldLength, size * FIELD_COUNT);
    this.fieldNorm = grow(this.fieldNorm, size * FIELD_COUNT);
  }
}
