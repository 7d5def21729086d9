/**
 * An index of names for "did you mean": given an unknown name, it returns the few names that can
 * be a suggestion at all, so the exact scoring runs on those instead of on every name (at 100k
 * tools, ten unknown names went from seconds to milliseconds).
 *
 * The rules it must stay a superset of are `suggestNames`' (internal/did-you-mean.ts): a name
 * equal to the unknown one (case-insensitive), one ending with it after a separator or the
 * reverse, or one within `max(2, floor(length / 3))` edits whose length differs by at most that.
 * The comparison test (name-index.test.ts) runs both on samples, so a drift fails there.
 */

import { endsAfterSeparator, lastSegmentStart, nameEditBound } from "./did-you-mean.js";
import { letterMask, maskDistance } from "./nearest-names.js";

/** Names sharing one key, with their lowercase forms or class masks (parallel lists). */
interface Bucket<T> {
  names: string[];
  values: T[];
}

function add<K, T>(map: Map<K, Bucket<T>>, key: K, name: string, value: T): void {
  const bucket = map.get(key);
  if (bucket) {
    bucket.names.push(name);
    bucket.values.push(value);
  } else map.set(key, { names: [name], values: [value] });
}

/**
 * Names indexed by their last segment (after the last separator) and by length with class masks.
 *
 * A name equal to the unknown one, ending with it after a separator, or being its tail after a
 * separator always has the unknown name's last segment, so one bucket holds all three kinds; names
 * within the edit bound are looked for only among the lengths that can qualify, by mask first.
 */
export class NameIndex {
  private readonly bySegment = new Map<string, Bucket<string>>();
  private readonly byLength = new Map<number, { names: string[]; masks: Int32Array }>();

  /** Indexes `names` once; duplicates are kept once. */
  constructor(names: Iterable<string>) {
    const seen = new Set<string>();
    const lengths = new Map<number, Bucket<number>>();
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const lower = name.toLowerCase();
      add(this.bySegment, lower.slice(lastSegmentStart(lower)), name, lower);
      // bucketed by the raw length: that is the length suggestNames compares
      add(lengths, name.length, name, letterMask(lower));
    }
    for (const [length, { names: list, values }] of lengths) {
      this.byLength.set(length, { names: list, masks: Int32Array.from(values) });
    }
  }

  /**
   * Every indexed name that can be suggested for `unknown` (a superset: score them with
   * `suggestNames`), in no particular order, each once.
   */
  candidates(unknown: string): string[] {
    const wanted = unknown.toLowerCase().trim();
    if (wanted === "") return [];
    const found = new Set<string>();
    const segment = this.bySegment.get(wanted.slice(lastSegmentStart(wanted)));
    if (segment) {
      const { names, values } = segment;
      for (let index = 0; index < names.length; index += 1) {
        const lower = values[index] as string;
        if (
          lower === wanted ||
          endsAfterSeparator(lower, wanted) ||
          endsAfterSeparator(wanted, lower)
        )
          found.add(names[index] as string);
      }
    }
    const limit = nameEditBound(wanted.length);
    const wantedMask = letterMask(wanted);
    for (let length = wanted.length - limit; length <= wanted.length + limit; length += 1) {
      const bucket = this.byLength.get(length);
      if (!bucket) continue;
      const { names, masks } = bucket;
      for (let index = 0; index < masks.length; index += 1) {
        if (maskDistance(wantedMask, masks[index] as number) <= limit)
          found.add(names[index] as string);
      }
    }
    return [...found];
  }
}
