/** Per tool: where its name's own part starts and letter masks of both parts, so "did you mean" skips most names unread. */

import { letterMask, nameSuffixStart } from "../../internal/index.js";

/** Per tool id: where the name's part after the namespace starts, and letter masks of both parts. */
export class NameMasks {
  private data = new Int32Array(0);

  /** Makes room for tool ids below `size` at once (a bulk add). */
  reserve(size: number): void {
    if (this.data.length >= size * 4) return;
    const next = new Int32Array(size * 4);
    next.set(this.data);
    this.data = next;
  }

  /** Records the name of tool `id`; `cut`, when known, is where its part after the namespace starts. */
  set(id: number, name: string, cut = nameSuffixStart(name)): void {
    if (this.data.length < (id + 1) * 4) this.reserve(Math.max(16, Math.ceil((id + 1) * 1.5)));
    this.data[id * 4] = cut;
    this.data[id * 4 + 1] = letterMask(name);
    this.data[id * 4 + 2] = letterMask(name, cut);
    this.data[id * 4 + 3] = name.length;
  }

  /** The masks of tool ids below `size`, for a snapshot. */
  saved(size: number): Int32Array {
    return this.data.subarray(0, size * 4);
  }

  /** Takes the masks of a snapshot (`saved`) as they are. */
  restore(data: Int32Array<ArrayBuffer>): void {
    this.data = data;
  }

  /** Forgets tool `id` (a removed tool is skipped by the whole-name scan). */
  clear(id: number): void {
    if (id * 4 + 3 < this.data.length) this.data[id * 4 + 3] = 0;
  }

  /** Length of the name (0 for no tool). */
  length(id: number): number {
    return this.data[id * 4 + 3] ?? 0;
  }

  /** Start of the part after the namespace (0 when there is none). */
  cut(id: number): number {
    return this.data[id * 4] ?? 0;
  }

  /** Letter mask of the whole name (`part` 0) or of its part after the namespace (`part` 1). */
  mask(id: number, part: 0 | 1): number {
    return this.data[id * 4 + 1 + part] ?? 0;
  }
}
