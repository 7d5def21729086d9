/**
 * Postings held back during a bulk add and written in one pass: each touched list grows at most
 * once per pass (by the same 1.5× steps as single adds, so a big build does not churn through
 * array buffers, which would cost extra full collections), instead of once per few documents.
 */

/** Held postings past which a bulk add should write them out (12 bytes each: 3 MB). */
const FULL_AT = 1 << 18;

/** `[term, doc, packedTf]` triples in arrival order, to be appended to the posting lists. */
export class PendingPostings {
  private entries = new Uint32Array(3 * 4096);
  private count = 0;
  /** Per term: postings held for it, times two (all zero between drains). */
  private added = new Int32Array(0);

  /** True when enough postings are held that they should be written out. */
  get full(): boolean {
    return this.count >= FULL_AT;
  }

  /** Holds one posting of `doc` in the list of `term`. */
  push(term: number, doc: number, packed: number): void {
    const at = this.count * 3;
    if (at + 3 > this.entries.length) {
      const grown = new Uint32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    this.entries[at] = term;
    this.entries[at + 1] = doc;
    this.entries[at + 2] = packed;
    this.count += 1;
  }

  /**
   * Appends the held postings to `postings` (lists of `[doc, packedTf]` pairs whose used length is
   * `postingLength`), in arrival order, then forgets them.
   */
  drain(postings: Uint32Array[], postingLength: number[]): void {
    if (this.count === 0) return;
    const entries = this.entries;
    const end = this.count * 3;
    if (this.added.length < postings.length) {
      this.added = new Int32Array(Math.ceil(postings.length * 1.5));
    }
    const added = this.added;
    const touched: number[] = [];
    for (let at = 0; at < end; at += 3) {
      const term = entries[at] as number;
      if (added[term] === 0) touched.push(term);
      added[term] = (added[term] as number) + 2;
    }
    for (const term of touched) {
      const list = postings[term] as Uint32Array;
      const used = postingLength[term] as number;
      const needed = used + (added[term] as number);
      added[term] = 0;
      if (list.length < needed) {
        let capacity = Math.max(4, list.length);
        while (capacity < needed) capacity = Math.ceil((capacity * 3) / 2);
        const grown = new Uint32Array(capacity);
        grown.set(list.subarray(0, used));
        postings[term] = grown;
      }
    }
    for (let at = 0; at < end; at += 3) {
      const term = entries[at] as number;
      const list = postings[term] as Uint32Array;
      const used = postingLength[term] as number;
      list[used] = entries[at + 1] as number;
      list[used + 1] = entries[at + 2] as number;
      postingLength[term] = used + 2;
    }
    this.count = 0;
  }
}
