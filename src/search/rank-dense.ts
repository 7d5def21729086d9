/**
 * The coverage pass of the dense scoring path (after `accumulateDense`): every id below the range
 * end is visited in order, and touched ones (the `TOUCHED` bit of their match mask) are multiplied
 * by their coverage and ranked into a top k, as `rankTouched` does for a touched list.
 */

import type { CoverageTable } from "./coverage-table.js";
import type { ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

/** Set in a document's match mask while scoring to mark it touched (needs at most 31 groups). */
export const TOUCHED = 0x80000000;

/**
 * `rankTouched` after `accumulateDense`: visits the ids below `size` in order and ranks each
 * touched one as `rankTouched` does (marking it touched for `scratch.scored`). Returns the best
 * score.
 */
export function rankDense(
  scratch: ScoreScratch,
  size: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const table = coverage.table;
  if (table !== undefined && coverage.requiredMask === 0 && !anyExcluded) {
    return rankUnfiltered(scratch, size, table, top, rejects);
  }
  return rankFiltered(scratch, size, coverage, anyExcluded, top, rejects);
}

/**
 * The common case: no required or excluded words and a coverage table. Untouched ids hold a zero
 * score and mask, so every id takes the same straight-line steps (an untouched one scores
 * `0 · table[0]`), and only ids that reach the current floor are checked further. Touched ids keep
 * the `TOUCHED` bit and no stamp (`scratch.dense` says so; `scratch.scored` reads either), which
 * saves two stores per id; the bit is outside every group's bit and weight, so the later steps
 * reading masks (required groups, aspect weights) do not see it. While the top k fills, the floor
 * is −∞ and every touched id is offered; after that the floor never exceeds the best score, so
 * `value < floor` alone says what `rankTouched`'s test says.
 */
function rankUnfiltered(
  scratch: ScoreScratch,
  size: number,
  table: Float64Array,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const { score, mask } = scratch;
  scratch.dense = true;
  let floor = top.floor;
  let best = 0;
  let doc = 0;
  // two ids a step (about a quarter faster); each is still considered in id order, the second
  // against the floor the first may have raised
  for (; doc + 1 < size; doc += 2) {
    const first = mask[doc] as number;
    const second = mask[doc + 1] as number;
    const value = Math.fround((score[doc] as number) * (table[first & 0x7fffffff] as number));
    const next = Math.fround((score[doc + 1] as number) * (table[second & 0x7fffffff] as number));
    score[doc] = value;
    score[doc + 1] = next;
    if (value < floor && next < floor) continue;
    if (value >= floor && first !== 0 && !rejects?.(doc)) {
      if (value > best) best = value;
      top.offer(doc);
      floor = top.floor;
    }
    if (next >= floor && second !== 0 && !rejects?.(doc + 1)) {
      if (next > best) best = next;
      top.offer(doc + 1);
      floor = top.floor;
    }
  }
  if (doc < size) {
    const marked = mask[doc] as number;
    const value = Math.fround((score[doc] as number) * (table[marked & 0x7fffffff] as number));
    score[doc] = value;
    if (value >= floor && marked !== 0 && !rejects?.(doc)) {
      if (value > best) best = value;
      top.offer(doc);
    }
  }
  return best;
}

/** `rankDense` with required or excluded words to check, or without a coverage table. */
function rankFiltered(
  scratch: ScoreScratch,
  size: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const { score, mask, excluded, stamp } = scratch;
  const epoch = scratch.epoch;
  const requiredMask = coverage.requiredMask;
  const table = coverage.table;
  const filtered = requiredMask !== 0 || anyExcluded;
  let best = 0;
  for (let doc = 0; doc < size; doc += 1) {
    const marked = mask[doc] as number;
    if (marked === 0) continue;
    const bits = (marked ^ TOUCHED) >>> 0;
    mask[doc] = bits;
    stamp[doc] = epoch;
    if (filtered && ((bits & requiredMask) >>> 0 !== requiredMask || excluded[doc] === epoch)) {
      score[doc] = -1;
      continue;
    }
    score[doc] =
      (score[doc] as number) *
      (table !== undefined ? (table[bits] as number) : coverage.multiplier(bits));
    const value = score[doc] as number;
    if (value <= best && value < top.floor) continue;
    if (rejects?.(doc)) continue;
    if (value > best) best = value;
    if (value >= top.floor) top.offer(doc);
  }
  return best;
}
