/**
 * The coverage pass of the dense scoring path (after `accumulateDense`): every id below the range
 * end is visited in order, and touched ones (the `TOUCHED` bit of their match mask) are multiplied
 * by their coverage and ranked into a top k, as `rankTouched` does for a touched list.
 */

import type { CoverageTable } from "../query/coverage-table.js";
import { GROUP_BITS, TOUCHED } from "./posting-score.js";
import { rankTouched } from "./rank-touched.js";
import type { ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

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
  for (let doc = 0; doc < size; doc += 1) {
    const marked = mask[doc] as number;
    const value = Math.fround((score[doc] as number) * (table[marked & GROUP_BITS] as number));
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
