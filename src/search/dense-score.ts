/**
 * The dense variant of a keyword query's scoring, for queries whose posting lists cover a good
 * share of a catalog of up to ~32k ids: zeroed per-document arrays instead of the per-posting
 * stamp check and touched list of `accumulate`, then one pass in id order instead of
 * `rankTouched`'s. It yields the same scores bit for bit and, after `settleTies` replays the
 * sparse visiting order for the rare ties at the k-th place, the same top k and best score.
 */

import type { PostingStore } from "./posting-store.js";
import type { QueryPlan } from "./query-terms.js";
import { rankTouched } from "./rank-touched.js";
import type { RankingConfig } from "./ranking-config.js";
import { accumulate, type CoverageTable, idf, nameIdf, type ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

/** Set in a document's match mask while scoring to mark it touched (needs at most 31 groups). */
const TOUCHED = 0x80000000;
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
 * Accumulates the BM25F scores of every term into zeroed dense arrays: the same sums as
 * `accumulate`, bit for bit (a document's first term writes `0 + value`, which rounds to float32
 * as `value` does, and later terms add in the same order). Touched documents carry the `TOUCHED`
 * bit in `scratch.mask` until `rankDense` clears it; their stamps are set there too.
 */
export function accumulateDense(
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
    const list = store.postings[term.id];
    if (list === undefined) continue;
    const saturated = store.contributions(term.id);
    const length = store.postingLength[term.id] ?? 0;
    const factor = term.weight * idf(store, term.id);
    // a match in the name earns extra by how rare the word is among names, not among all text
    const nameFactor = nameBonus * term.weight * nameIdf(store, term.id);
    const bit = (TOUCHED | (term.expansion ? 0 : 2 ** Math.min(term.group, 31))) >>> 0;
    for (let index = 0; index < length; index += 2) {
      const doc = list[index] as number;
      if (checkAlive && alive[doc] !== 1) continue;
      let value = factor * (saturated[index >> 1] as number);
      if (((list[index + 1] as number) & 15) !== 0) value += nameFactor;
      score[doc] = (score[doc] as number) + value;
      mask[doc] = (mask[doc] as number) | bit;
    }
  }
}

/**
 * `rankTouched` after `accumulateDense`: visits the ids below `size` in order, and for each touched
 * one clears the `TOUCHED` bit, stamps it with the query's epoch and ranks it as `rankTouched`
 * does. Both compare a document's unrounded score with the float32 score of the current k-th, so
 * a document whose score rounds up (its float32 score above the unrounded one) may tie the final
 * k-th and get in or not by the order of visits: such documents that were offered or reached the
 * floor only by rounding are pushed to `fragile`, the other offered ones to `offered` (every
 * document that may tie the final k-th is in one of them; see `settleTies`). Returns the best.
 */
export function rankDense(
  scratch: ScoreScratch,
  size: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
  fragile: number[],
  offered: number[],
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
    const value =
      (score[doc] as number) *
      (table !== undefined ? (table[bits] as number) : coverage.multiplier(bits));
    score[doc] = value;
    const floor = top.floor;
    if (value < floor) {
      // rounded to float32 it reaches the floor: offered or not depending on the visiting order
      if ((score[doc] as number) >= floor) fragile.push(doc);
      if (value <= best || rejects?.(doc)) continue;
      best = value;
      continue;
    }
    if (rejects?.(doc)) continue;
    if (value > best) best = value;
    if (value < (score[doc] as number)) fragile.push(doc);
    else offered.push(doc);
    top.offer(doc);
  }
  return best;
}

/** Per-document marks for `firstTouchOrder`; all zero between calls. */
let marks = new Uint8Array(0);

/** `docs` in the order `accumulate` first touches them (plan order, then posting order). */
function firstTouchOrder(store: PostingStore, plan: QueryPlan, docs: readonly number[]): number[] {
  if (marks.length < store.nextId) marks = new Uint8Array(store.nextId * 2);
  for (const doc of docs) marks[doc] = 1;
  const alive = store.alive;
  const out: number[] = [];
  for (const term of plan.terms) {
    const list = store.postings[term.id];
    const length = store.postingLength[term.id] ?? 0;
    if (list === undefined) continue;
    for (let index = 0; index < length && out.length < docs.length; index += 2) {
      const doc = list[index] as number;
      if (marks[doc] !== 1 || alive[doc] !== 1) continue;
      marks[doc] = 0;
      out.push(doc);
    }
  }
  for (const doc of docs) marks[doc] = 0;
  return out;
}

/**
 * Makes the dense pass's top k the one `rankTouched` finds in its own order. They can differ only
 * when a fragile document (see `rankDense`) ties the final k-th score F with another document: it
 * is let in only while fewer than k documents scoring at least F have been offered before it, in
 * `accumulate`'s order. Replays that order over the documents scoring at least F.
 */
function settleTies(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  top: TopK,
  fragile: readonly number[],
  offered: readonly number[],
  rejects: ((doc: number) => boolean) | undefined,
): void {
  if (!top.full) return;
  const score = scratch.score;
  const floor = top.floor;
  const risky = new Set(fragile.filter((doc) => score[doc] === floor));
  if (risky.size === 0) return;
  const tied = [...risky, ...offered.filter((doc) => score[doc] === floor)];
  if (tied.length < 2) return;
  // `rankTouched` checks a fragile document when it lets it in
  for (const doc of risky) if (rejects?.(doc)) risky.delete(doc);
  const k = top.size;
  const above = top.finish([]).filter((doc) => (score[doc] as number) > floor);
  const members = [...above, ...tied.filter((doc) => score[doc] === floor)];
  const kept: number[] = [];
  for (const doc of firstTouchOrder(store, plan, members)) {
    // `kept` holds the documents scoring at least the k-th offered before this one
    if (risky.has(doc) && kept.length >= k) continue;
    kept.push(doc);
  }
  top.clear();
  for (const doc of kept) top.offer(doc);
}

/**
 * The dense path of `scoreAndRank` (whatever `denseApplies` says): `accumulateDense`, `rankDense`
 * and the tie settling that makes its top k `rankTouched`'s. Returns the best score.
 */
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
  const fragile: number[] = [];
  const offered: number[] = [];
  const size = store.nextId;
  const best = rankDense(scratch, size, coverage, anyExcluded, top, rejects, fragile, offered);
  settleTies(store, plan, scratch, top, fragile, offered, rejects);
  return best;
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
