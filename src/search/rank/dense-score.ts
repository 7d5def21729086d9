/**
 * The dense variant of a keyword query's scoring, for queries whose posting lists cover a good
 * share of a catalog of up to ~32k ids: zeroed per-document arrays instead of the per-posting
 * stamp check and touched list of `accumulate`, then one pass in id order instead of
 * `rankTouched`'s. It yields the same scores bit for bit and, since both compare the float32
 * scores they store (ties then go by name), the same top k and best score in any visiting order.
 */

import type { CoverageTable } from "../query/coverage-table.js";
import type { QueryPlan } from "../query/query-terms.js";
import type { RankingConfig } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";
import { postingScore, TOUCHED, termBit, termFactor, termNameFactor } from "./posting-score.js";
import { rankDense } from "./rank-dense.js";
import { rankTouched } from "./rank-touched.js";
import { accumulate, type ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

/** The dense path pays off once the postings read are at least this share of the id range. */
const DENSE_SHARE = 0.5;
/** Above this many ids the dense arrays outgrow the caches and the sparse path is faster. */
const DENSE_MAX_IDS = 1 << 15;

/**
 * True when `accumulateDense` and `rankDense` should score this plan: it has at most 31 groups
 * (the mask's top bit marks touched documents), the id range is small enough for the dense arrays
 * to stay in cache, and the plan reads many postings for that range.
 */
export function denseApplies(store: PostingStore, plan: QueryPlan): boolean {
  if (plan.groups.length > 31 || store.nextId > DENSE_MAX_IDS) return false;
  let total = 0;
  for (const term of plan.terms) total += store.postingLength[term.id] ?? 0;
  // postingLength counts two numbers per posting
  return total >= 2 * DENSE_SHARE * store.nextId;
}

/**
 * Adds one term's postings (all live) to the dense arrays, four postings a step: a term lists each
 * document once, so the updates are independent and each document's sum is unchanged. The
 * unrolling is measured: without it the 10k p99Query is ~25% slower (docs/search-internals.md).
 */
function addPostings(
  list: Uint32Array,
  saturated: Float32Array,
  length: number,
  factor: number,
  nameFactor: number,
  bit: number,
  score: Float32Array,
  mask: Uint32Array,
): void {
  let index = 0;
  for (; index + 6 < length; index += 8) {
    const half = index >> 1;
    const a = list[index] as number;
    const b = list[index + 2] as number;
    const c = list[index + 4] as number;
    const d = list[index + 6] as number;
    const va = postingScore(
      factor,
      nameFactor,
      saturated[half] as number,
      list[index + 1] as number,
    );
    const vb = postingScore(
      factor,
      nameFactor,
      saturated[half + 1] as number,
      list[index + 3] as number,
    );
    const vc = postingScore(
      factor,
      nameFactor,
      saturated[half + 2] as number,
      list[index + 5] as number,
    );
    const vd = postingScore(
      factor,
      nameFactor,
      saturated[half + 3] as number,
      list[index + 7] as number,
    );
    score[a] = (score[a] as number) + va;
    mask[a] = (mask[a] as number) | bit;
    score[b] = (score[b] as number) + vb;
    mask[b] = (mask[b] as number) | bit;
    score[c] = (score[c] as number) + vc;
    mask[c] = (mask[c] as number) | bit;
    score[d] = (score[d] as number) + vd;
    mask[d] = (mask[d] as number) | bit;
  }
  for (; index < length; index += 2) {
    const doc = list[index] as number;
    const value = postingScore(
      factor,
      nameFactor,
      saturated[index >> 1] as number,
      list[index + 1] as number,
    );
    score[doc] = (score[doc] as number) + value;
    mask[doc] = (mask[doc] as number) | bit;
  }
}

/**
 * Accumulates the BM25F scores of every term into zeroed dense arrays: the same sums as
 * `accumulate`, bit for bit (a document's first term writes `0 + value`, which rounds to float32
 * as `value` does, and later terms add in the same order). Touched documents carry the `TOUCHED`
 * bit in `scratch.mask` (see `rankDense`).
 */
function accumulateDense(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  nameBonus: number,
): void {
  const { score, mask } = scratch;
  const size = store.nextId;
  score.fill(0, 0, size);
  mask.fill(0, 0, size);
  const alive = store.alive;
  const checkAlive = store.hasDead;
  for (const term of plan.terms) {
    const list = store.postingList(term.id);
    if (list === undefined) continue;
    const saturated = store.contributions(term.id);
    const length = store.postingLength[term.id] ?? 0;
    const factor = termFactor(store, term);
    const nameFactor = termNameFactor(store, term, nameBonus);
    const bit = (TOUCHED | termBit(term)) >>> 0;
    if (!checkAlive) {
      addPostings(list, saturated, length, factor, nameFactor, bit, score, mask);
      continue;
    }
    // removed tools still have postings until the store packs: skip them
    for (let index = 0; index < length; index += 2) {
      const doc = list[index] as number;
      if (alive[doc] !== 1) continue;
      const value = postingScore(
        factor,
        nameFactor,
        saturated[index >> 1] as number,
        list[index + 1] as number,
      );
      score[doc] = (score[doc] as number) + value;
      mask[doc] = (mask[doc] as number) | bit;
    }
  }
}

/** The dense path of `scoreAndRank` (whatever `denseApplies` says). Returns the best score. */
export function scoreDense(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  nameBonus: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  accumulateDense(store, plan, scratch, nameBonus);
  return rankDense(scratch, store.nextId, coverage, anyExcluded, top, rejects);
}

/**
 * Scores a plan and ranks every touched document into `top` (see `rankTouched` for `rejects`),
 * by the dense path when `denseApplies`, else by `accumulate` and `rankTouched`: the same result
 * either way. `scratch.excluded` must be marked for `anyExcluded`. Returns the best.
 */
export function scoreAndRank(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  config: Pick<RankingConfig, "nameBonus">,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
): number {
  const { nameBonus } = config;
  if (denseApplies(store, plan)) {
    return scoreDense(store, plan, scratch, nameBonus, coverage, anyExcluded, top, rejects);
  }
  const touched = accumulate(store, plan, scratch, nameBonus);
  return rankTouched(scratch, touched, coverage, anyExcluded, top, rejects);
}
