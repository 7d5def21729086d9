/** The coverage pass of a keyword query: every touched document's score times its coverage, into a top k. */

import type { CoverageTable } from "../query/coverage-table.js";
import type { ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

/**
 * Multiplies the score of each of the first `count` touched documents by the coverage multiplier
 * of its match mask, drops those missing a required word or holding an excluded one (marked in
 * `scratch.excluded` when `anyExcluded`), and offers the rest to `top`. `rejects` (the server and caller
 * checks; it must set a rejected document's score below 0) costs a call, so it runs only for a
 * document that could still matter: a new best or a place in the top k. Returns the best score.
 */
export function rankTouched(
  scratch: ScoreScratch,
  count: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const { score, mask, excluded, touched } = scratch;
  const epoch = scratch.epoch;
  const requiredMask = coverage.requiredMask;
  const table = coverage.table;
  const filtered = requiredMask !== 0 || anyExcluded;
  let best = 0;
  for (let index = 0; index < count; index += 1) {
    const doc = touched[index] as number;
    const bits = mask[doc] as number;
    if (filtered && ((bits & requiredMask) >>> 0 !== requiredMask || excluded[doc] === epoch)) {
      score[doc] = -1;
      continue;
    }
    score[doc] =
      (score[doc] as number) *
      (table !== undefined ? (table[bits] as number) : coverage.multiplier(bits));
    // compare the stored float32 score, as the top k does: ties then go by name in any order
    const value = score[doc] as number;
    if (value <= best && value < top.floor) continue;
    if (rejects?.(doc)) continue;
    if (value > best) best = value;
    if (value >= top.floor) top.offer(doc);
  }
  return best;
}
