/**
 * Postings held back during a bulk add and written in one pass. Held in fixed-size chunks (no
 * copying as they pile up), they are counted per term first, so each list is allocated once at
 * its exact final size: either on its own, or all lists side by side in one shared buffer. A big
 * build then makes no intermediate lists, whose churn cost extra full collections.
 */

/** Postings per chunk of held `[term, packedTf]` pairs (2 MB per chunk). */
const CHUNK = 1 << 18;

/** The list of a term with no postings (shared: a list is replaced, never written, when it grows from empty). */
export const NO_POSTINGS = new Uint32Array(0);

/** `[term, doc, packedTf]` postings in arrival order, to be appended to the posting lists. */
export class PendingPostings {
  /** Held `[term, packedTf]` pairs, `chunk` per chunk. */
  private readonly chunks: Uint32Array[] = [];
  private count = 0;
  /** Documents in arrival order and, for each, the number of postings held up to its last one. */
  private docs = new Int32Array(1024);
  private docEnds = new Int32Array(1024);
  private docCount = 0;
  /** Per term: postings held for it, times two (all zero between drains). */
  private added = new Int32Array(0);

  /** `chunk`: postings held per chunk (small values are for tests). */
  constructor(private readonly chunk = CHUNK) {}

  /** Holds one posting of `doc` (postings of one document must arrive together). */
  push(term: number, doc: number, packed: number): void {
    const chunkIndex = Math.floor(this.count / this.chunk);
    if (chunkIndex === this.chunks.length) this.chunks.push(new Uint32Array(2 * this.chunk));
    const chunk = this.chunks[chunkIndex] as Uint32Array;
    const at = 2 * (this.count - chunkIndex * this.chunk);
    chunk[at] = term;
    chunk[at + 1] = packed;
    this.count += 1;
    const last = this.docCount - 1;
    if (last >= 0 && this.docs[last] === doc) {
      this.docEnds[last] = this.count;
      return;
    }
    if (this.docCount === this.docs.length) {
      this.docs = grownInt32(this.docs);
      this.docEnds = grownInt32(this.docEnds);
    }
    this.docs[this.docCount] = doc;
    this.docEnds[this.docCount] = this.count;
    this.docCount += 1;
  }

  /**
   * Appends the held postings to `postings` (lists of `[doc, packedTf]` pairs whose used length is
   * `postingLength`), in arrival order, then forgets them. With `pack`, every list (held postings
   * or not) is moved into one buffer, each exactly as long as it is used.
   */
  drain(postings: Uint32Array[], postingLength: Int32Array, pack: boolean): void {
    if (this.count === 0 && !pack) return;
    if (this.added.length < postings.length) {
      this.added = new Int32Array(Math.ceil(postings.length * 1.5));
    }
    const added = this.added;
    const touched: number[] = [];
    for (let chunkIndex = 0; chunkIndex < this.chunks.length; chunkIndex += 1) {
      const chunk = this.chunks[chunkIndex] as Uint32Array;
      const end = 2 * Math.min(this.chunk, this.count - chunkIndex * this.chunk);
      for (let at = 0; at < end; at += 2) {
        const term = chunk[at] as number;
        if (added[term] === 0) touched.push(term);
        added[term] = (added[term] as number) + 2;
      }
    }
    if (pack) this.packLists(postings, postingLength);
    else this.growLists(postings, postingLength, touched);
    this.scatter(postings, postingLength);
    this.chunks.length = 0;
    this.count = 0;
    this.docCount = 0;
  }

  /** Gives every list room for its held postings, growing by 1.5× steps. */
  private growLists(postings: Uint32Array[], postingLength: Int32Array, touched: number[]): void {
    const added = this.added;
    for (const term of touched) {
      const extra = added[term] as number;
      added[term] = 0;
      const list = postings[term] as Uint32Array;
      const used = postingLength[term] as number;
      const needed = used + extra;
      if (list.length >= needed) continue;
      let capacity = Math.max(4, list.length);
      while (capacity < needed) capacity = Math.ceil((capacity * 3) / 2);
      const grown = new Uint32Array(capacity);
      grown.set(list.subarray(0, used));
      postings[term] = grown;
    }
  }

  /** Moves every list into one buffer with exactly the room its held postings need. */
  private packLists(postings: Uint32Array[], postingLength: Int32Array): void {
    const added = this.added;
    let total = 0;
    for (let term = 0; term < postings.length; term += 1) {
      total += (postingLength[term] as number) + (added[term] as number);
    }
    const slab = new Uint32Array(total);
    let offset = 0;
    for (let term = 0; term < postings.length; term += 1) {
      const used = postingLength[term] as number;
      const size = used + (added[term] as number);
      added[term] = 0;
      if (size === 0) {
        postings[term] = NO_POSTINGS;
        continue;
      }
      const list = postings[term] as Uint32Array;
      if (used > 0) slab.set(used === list.length ? list : list.subarray(0, used), offset);
      postings[term] = slab.subarray(offset, offset + size);
      offset += size;
    }
  }

  /** Appends each held posting to its list, in arrival order. */
  private scatter(postings: Uint32Array[], postingLength: Int32Array): void {
    let index = 0;
    for (let docIndex = 0; docIndex < this.docCount; docIndex += 1) {
      const doc = this.docs[docIndex] as number;
      const end = this.docEnds[docIndex] as number;
      while (index < end) {
        const chunkIndex = Math.floor(index / this.chunk);
        const chunk = this.chunks[chunkIndex] as Uint32Array;
        const stop = Math.min(end, (chunkIndex + 1) * this.chunk);
        for (let at = 2 * (index - chunkIndex * this.chunk); index < stop; index += 1, at += 2) {
          const term = chunk[at] as number;
          const list = postings[term] as Uint32Array;
          const used = postingLength[term] as number;
          list[used] = doc;
          list[used + 1] = chunk[at + 1] as number;
          postingLength[term] = used + 2;
        }
      }
    }
  }
}

function grownInt32(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
