/** Partial top-k selection over document ids (score desc, then name), without sorting everything. */

import type { ToolDefinition } from "../../catalog/index.js";

/** Keeps the best `k` documents offered so far. */
export class TopK {
  private readonly top: number[] = [];
  /** Score of the current k-th document (documents below it cannot enter). */
  floor = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly k: number,
    private readonly score: Float32Array,
    private readonly tools: readonly (ToolDefinition | undefined)[],
  ) {}

  /** How many documents are kept (at most `k`). */
  get size(): number {
    return this.top.length;
  }

  /** The documents kept so far, best first (do not modify). */
  docs(): readonly number[] {
    return this.top;
  }

  /** True once `k` documents are kept. */
  get full(): boolean {
    return this.top.length === this.k;
  }

  /** The best document kept so far, or -1 when none is. */
  first(): number {
    return this.top.length > 0 ? (this.top[0] as number) : -1;
  }

  /** Forgets every document offered so far. */
  clear(): void {
    this.top.length = 0;
    this.floor = Number.NEGATIVE_INFINITY;
  }

  /** True when document `a` ranks before `b`. */
  before(a: number, b: number): boolean {
    const sa = this.score[a] as number;
    const sb = this.score[b] as number;
    if (sa !== sb) return sa > sb;
    return (this.tools[a]?.name ?? "") < (this.tools[b]?.name ?? "");
  }

  /** Considers one document; cheap when it scores below the current k-th. */
  offer(doc: number): void {
    const top = this.top;
    const k = this.k;
    if ((this.score[doc] as number) < this.floor) return;
    if (top.length === k && !this.before(doc, top[k - 1] as number)) return;
    let position = top.length < k ? top.length : k - 1;
    while (position > 0 && this.before(doc, top[position - 1] as number)) {
      top[position] = top[position - 1] as number;
      position -= 1;
    }
    top[position] = doc;
    if (top.length === k) this.floor = this.score[top[k - 1] as number] as number;
  }

  /** The final order, after re-offering documents whose scores were raised since they were offered. */
  finish(raised: readonly number[]): number[] {
    // nothing raised: the kept documents are already in order
    if (raised.length === 0) return this.top.slice();
    const pool = new Set(this.top);
    for (const doc of raised) pool.add(doc);
    return [...pool]
      .sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0))
      .slice(0, this.k);
  }
}
