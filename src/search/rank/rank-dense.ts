/**
 * The coverage pass of the dense scoring path (after `accumulateDense`): every id below the range
 * end is visited in order, and touched ones (the `TOUCHED` bit of their match mask) are multiplied
 * by their coverage and ranked into a top k, as `rankTouched` does for a touched list.
 */

import type { CoverageTable } from "../query/coverage-table.js";
import { rankTouched } from "./rank-touched.js";
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
  let doc = 0;
  // four ids a step (the loop's own steps cost as much as the work); each is still considered in
  // id order, against the floor the ones before it may have raised
  for (; doc + 3 < size; doc += 4) {
    const m0 = mask[doc] as number;
    const m1 = mask[doc + 1] as number;
    const m2 = mask[doc + 2] as number;
    const m3 = mask[doc + 3] as number;
    const v0 = Math.fround((score[doc] as number) * (table[m0 & 0x7fffffff] as number));
    const v1 = Math.fround((score[doc + 1] as number) * (table[m1 & 0x7fffffff] as number));
    const v2 = Math.fround((score[doc + 2] as number) * (table[m2 & 0x7fffffff] as number));
    const v3 = Math.fround((score[doc + 3] as number) * (table[m3 & 0x7fffffff] as number));
    score[doc] = v0;
    score[doc + 1] = v1;
    score[doc + 2] = v2;
    score[doc + 3] = v3;
    if (v0 < floor && v1 < floor && v2 < floor && v3 < floor) continue;
    if (v0 >= floor && m0 !== 0) floor = admit(top, rejects, doc, floor);
    if (v1 >= floor && m1 !== 0) floor = admit(top, rejects, doc + 1, floor);
    if (v2 >= floor && m2 !== 0) floor = admit(top, rejects, doc + 2, floor);
    if (v3 >= floor && m3 !== 0) floor = admit(top, rejects, doc + 3, floor);
  }
  for (; doc < size; doc += 1) {
    const marked = mask[doc] as number;
    const value = Math.fround((score[doc] as number) * (table[marked & 0x7fffffff] as number));
    score[doc] = value;
    if (value >= floor && marked !== 0) floor = admit(top, rejects, doc, floor);
  }
  // every document that reached the floor was offered, and the top k keeps the best of them
  const first = top.first();
  return first < 0 ? 0 : Math.max(0, score[first] as number);
}

/** Offers `doc` unless `rejects` turns it down; returns the top k's floor after. */
function admit(
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
  doc: number,
  floor: number,
): number {
  if (rejects?.(doc)) return floor;
  top.offer(doc);
  return top.floor;
}

/**
 * `rankDense` with required or excluded words to check, or without a coverage table: lists the
 * touched ids (clearing their mark, stamping them) and ranks them as the sparse path does.
 */
function rankFiltered(
  scratch: ScoreScratch,
  size: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const { mask, stamp, touched } = scratch;
  let count = 0;
  for (let doc = 0; doc < size; doc += 1) {
    const marked = mask[doc] as number;
    if (marked === 0) continue;
    mask[doc] = (marked ^ TOUCHED) >>> 0;
    stamp[doc] = scratch.epoch;
    touched[count++] = doc;
  }
  return rankTouched(scratch, count, coverage, anyExcluded, top, rejects);
}
