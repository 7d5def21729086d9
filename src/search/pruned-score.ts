/**
 * MaxScore-style pruning of a keyword query's scoring, exact to the bit (EXPERIMENT: measured no
 * faster than the plain path on the synthetic 10k catalog; kept in history only). The head of the
 * plan is summed as `accumulate` does; the weak tail (low-weight expansions, which come last) is
 * summed only for head documents that may still reach a floor taken from the strongest head list,
 * plus forced documents; left-out documents are never ranked and `completeDocuments` rescores one
 * read later (a prerequisite finder).
 */

import type { PostingStore } from "./posting-store.js";
import type { QueryPlan } from "./query-terms.js";
import { type CoverageTable, idf, nameIdf, type ScoreScratch } from "./score-query.js";

/** Prune only when the postings read are at least this share of the id range. */
const PRUNE_SHARE = 0.25;
/** The weak terms may add up to at most this share of the strongest term's best contribution. */
const WEAK_SHARE = 0.5;
/** A strong term inside the weak tail must hold fewer postings than the query's total over this. */
const SHORT_SHARE = 32;
/** Prune only when the weak tail holds at least the query's postings over this. */
const WEAK_POSTINGS = 5;
/** Relative slack for float32 rounding in the bounds (far above the real error, ~1e-7 per term). */
const SLACK = 1e-4;

/** Reusable state of the pruned scoring: the rough bounds and the per-term maxima cache. */
export class PruneScratch {
  /** Documents scored in full in query `epoch` (head documents left out keep partial scores). */
  picked = new Uint32Array(0);
  epoch = 0;
  /** The head score a document needed to be scored in full in query `epoch` (-∞: no pruning). */
  cut = Number.NEGATIVE_INFINITY;
  private readonly revision: number[] = [];
  private readonly maxName: number[] = [];
  private readonly maxOther: number[] = [];

  /** The largest saturated part of a term's postings with and without a name match (cached). */
  maxima(store: PostingStore, term: number): [number, number] {
    const saturated = store.contributions(term);
    if (this.revision[term] !== store.revision) {
      const list = store.postings[term] as Uint32Array;
      const length = store.postingLength[term] ?? 0;
      let named = -1;
      let other = -1;
      for (let index = 0; index < length; index += 2) {
        const value = saturated[index >> 1] as number;
        if (((list[index + 1] as number) & 15) !== 0) named = Math.max(named, value);
        else other = Math.max(other, value);
      }
      this.revision[term] = store.revision;
      this.maxName[term] = named;
      this.maxOther[term] = other;
    }
    return [this.maxName[term] as number, this.maxOther[term] as number];
  }
}

/** The best contribution of each plan term to any document (without coverage). */
function termMaxima(store: PostingStore, plan: QueryPlan, prune: PruneScratch, nameBonus: number) {
  return plan.terms.map((term) => {
    if (store.postings[term.id] === undefined) return 0;
    const [named, other] = prune.maxima(store, term.id);
    const factor = term.weight * idf(store, term.id);
    const nameFactor = nameBonus * term.weight * nameIdf(store, term.id);
    return Math.max(named < 0 ? 0 : factor * named + nameFactor, other < 0 ? 0 : factor * other);
  });
}

/** Keeps the `k` largest numbers offered (a lower bound on the k-th best score once full). */
function kthLargest(values: number[], k: number, value: number): void {
  if (values.length === k && value <= (values[k - 1] as number)) return;
  let at = values.length < k ? values.length : k - 1;
  while (at > 0 && (values[at - 1] as number) < value) {
    values[at] = values[at - 1] as number;
    at -= 1;
  }
  values[at] = value;
}

/**
 * `accumulate`'s sums for the plan terms from `from` to `to` (exclusive), in plan order; with
 * `picked`, only for the documents whose entry there is `mark` (by default the query's epoch). Appends newly touched documents to
 * `scratch.touched` from `count` on and returns the new count.
 */
function sumTerms(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  nameBonus: number,
  from: number,
  to: number,
  count: number,
  picked: Uint32Array | undefined,
  mark = scratch.epoch,
): number {
  const { score, mask, stamp, touched } = scratch;
  const epoch = scratch.epoch;
  const alive = store.alive;
  const checkAlive = store.hasDead;
  for (let at = from; at < to; at += 1) {
    const term = plan.terms[at] as QueryPlan["terms"][number];
    const list = store.postings[term.id];
    if (list === undefined) continue;
    const saturated = store.contributions(term.id);
    const length = store.postingLength[term.id] ?? 0;
    const factor = term.weight * idf(store, term.id);
    const nameFactor = nameBonus * term.weight * nameIdf(store, term.id);
    const bit = term.expansion ? 0 : 2 ** Math.min(term.group, 31);
    for (let index = 0; index < length; index += 2) {
      const doc = list[index] as number;
      if (picked !== undefined && picked[doc] !== mark) continue;
      if (checkAlive && alive[doc] !== 1) continue;
      let value = factor * (saturated[index >> 1] as number);
      if (((list[index + 1] as number) & 15) !== 0) value += nameFactor;
      if (stamp[doc] !== epoch) {
        stamp[doc] = epoch;
        score[doc] = value;
        mask[doc] = bit;
        touched[count++] = doc;
      } else {
        score[doc] = (score[doc] as number) + value;
        mask[doc] = (mask[doc] as number) | bit;
      }
    }
  }
  return count;
}

/** Where the weak tail of a plan starts, and the summed best contribution of its weak terms. */
function weakTail(store: PostingStore, plan: QueryPlan, maxima: readonly number[], total: number) {
  const strongest = Math.max(0, ...maxima);
  let rest = 0;
  let weak = 0;
  const strong: number[] = [];
  let from = plan.terms.length;
  while (from > 0) {
    const value = maxima[from - 1] as number;
    const postings = (store.postingLength[plan.terms[from - 1]!.id] ?? 0) >> 1;
    if (rest + value <= WEAK_SHARE * strongest) {
      rest += value;
      weak += postings;
    } else if (postings * SHORT_SHARE <= total) strong.push(from - 1);
    else break;
    from -= 1;
  }
  return { from, rest, weak, strong };
}

/**
 * Scores `plan` into `scratch` like `accumulate`, but the weak tail of the plan (low-weight
 * expansions come last) only for documents that may still reach the top `k`, `forced` ones
 * and those of the tail's strong (short) lists; returns the touched count, or -1 when pruning
 * does not apply (small query for the catalog, required words, no weak tail). Documents touched
 * only by the head and not picked keep partial scores: they are never ranked and
 * `completeDocuments` rescores one if it is read later. `excluded` must already be marked.
 */
export function accumulatePruned(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  prune: PruneScratch,
  nameBonus: number,
  coverage: CoverageTable,
  k: number,
  anyExcluded: boolean,
  rejects: ((doc: number) => boolean) | undefined,
  forced: readonly number[],
): number {
  const table = coverage.table;
  if (coverage.requiredMask !== 0 || table === undefined) return -1;
  const size = store.nextId;
  let total = 0;
  for (const term of plan.terms) total += (store.postingLength[term.id] ?? 0) >> 1;
  if (total < PRUNE_SHARE * size) return -1;
  const maxima = termMaxima(store, plan, prune, nameBonus);
  const { from, rest, weak, strong } = weakTail(store, plan, maxima, total);
  if (weak * WEAK_POSTINGS < total) return -1;
  const epoch = scratch.epoch;
  const { score, touched } = scratch;
  const headCount = sumTerms(store, plan, scratch, nameBonus, 0, from, 0, undefined);
  // the documents of the strongest long head term give a floor for the k-th final score
  let lead = -1;
  for (let at = 0; at < from; at += 1) {
    if ((store.postingLength[plan.terms[at]!.id] ?? 0) < 4 * k) continue;
    if (lead < 0 || maxima[at]! > maxima[lead]!) lead = at;
  }
  if (prune.picked.length < size) prune.picked = new Uint32Array(Math.max(64, size * 2));
  const picked = prune.picked;
  prune.cut = Number.NEGATIVE_INFINITY;
  prune.epoch = epoch;
  if (lead >= 0) {
    let least = Number.POSITIVE_INFINITY;
    let most = 0;
    for (const value of table) {
      least = Math.min(least, value);
      most = Math.max(most, value);
    }
    const lows: number[] = [];
    const term = plan.terms[lead]!.id;
    const list = store.postings[term] as Uint32Array;
    const length = store.postingLength[term] ?? 0;
    for (let at = 0; at < length; at += 2) {
      const doc = list[at] as number;
      if (scratch.stamp[doc] !== epoch) continue;
      const low = (score[doc] as number) * least * (1 - SLACK);
      if (lows.length === k && low <= (lows[k - 1] as number)) continue;
      if (anyExcluded && scratch.excluded[doc] === epoch) continue;
      if (rejects?.(doc)) continue;
      kthLargest(lows, k, low);
    }
    if (lows.length === k && least > 0) {
      prune.cut = (lows[k - 1] as number) / (most * (1 + SLACK)) - rest;
    }
  }
  if (!(prune.cut > 0)) {
    // no floor high enough: the tail may start documents, so score it in full
    prune.cut = Number.NEGATIVE_INFINITY;
    return sumTerms(store, plan, scratch, nameBonus, from, plan.terms.length, headCount, undefined);
  }
  // documents that must be scored in full: forced ones and those of the tail's strong lists
  for (const doc of forced) picked[doc] = epoch;
  for (const at of strong) {
    const term = plan.terms[at]!.id;
    const list = store.postings[term] as Uint32Array;
    const length = store.postingLength[term] ?? 0;
    for (let index = 0; index < length; index += 2) picked[list[index] as number] = epoch;
  }
  // keep (at the front of `touched`) the head documents that may still reach the top k
  let count = 0;
  for (let at = 0; at < headCount; at += 1) {
    const doc = touched[at] as number;
    if ((score[doc] as number) < prune.cut && picked[doc] !== epoch) continue;
    picked[doc] = epoch;
    touched[count++] = doc;
  }
  return sumTerms(store, plan, scratch, nameBonus, from, plan.terms.length, count, picked);
}

/** Marks, in `PruneScratch.picked`, a document `completeDocuments` is scoring. */
const COMPLETING = 0xffffffff;

/**
 * Scores in full the documents of `docs` that `accumulatePruned` left out or left partial (a
 * finder the prerequisite step reads, far below the top k), exactly as `accumulate` then
 * `rankTouched` would have: summed in plan order, then the required/excluded check and coverage.
 */
export function completeDocuments(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  prune: PruneScratch,
  nameBonus: number,
  coverage: CoverageTable,
  docs: readonly number[],
): void {
  const { score, mask, stamp, excluded } = scratch;
  const epoch = scratch.epoch;
  if (prune.epoch !== epoch || prune.cut === Number.NEGATIVE_INFINITY) return;
  const picked = prune.picked;
  const wanted: number[] = [];
  for (const doc of docs) {
    if (picked[doc] === epoch || picked[doc] === COMPLETING) continue;
    picked[doc] = COMPLETING;
    stamp[doc] = 0;
    wanted.push(doc);
  }
  if (wanted.length === 0) return;
  sumTerms(store, plan, scratch, nameBonus, 0, plan.terms.length, 0, picked, COMPLETING);
  const required = coverage.requiredMask;
  for (const doc of wanted) {
    picked[doc] = epoch;
    if (stamp[doc] !== epoch) continue;
    const bits = mask[doc] as number;
    if ((bits & required) >>> 0 !== required || excluded[doc] === epoch) score[doc] = -1;
    else score[doc] = (score[doc] as number) * coverage.multiplier(bits);
  }
}
