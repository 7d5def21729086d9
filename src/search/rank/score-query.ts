/** BM25F scoring of a query plan over the posting store, with required/excluded filtering and bonuses. */

import type { QueryPlan } from "../query/query-terms.js";
import type { RankingConfig } from "../ranking-config.js";
import { FIELD_COUNT, FIELD_NAMES, fieldTf } from "../store/fields.js";
import { type PostingStore, saturate } from "../store/posting-store.js";
import type { FieldContribution } from "../types.js";
import { postingScore, TOUCHED, termBit, termFactor, termNameFactor } from "./posting-score.js";

/** Reusable per-document scratch arrays; grown to the store's id range. */
export class ScoreScratch {
  score = new Float32Array(0);
  mask = new Uint32Array(0);
  stamp = new Uint32Array(0);
  excluded = new Uint32Array(0);
  touched = new Int32Array(0);
  epoch = 0;
  /**
   * True when this query was scored by the dense path without stamps: its touched documents then
   * carry the `TOUCHED` bit of their match mask instead (see `scored`).
   */
  dense = false;

  /** Makes room for `size` documents and starts a new query. */
  begin(size: number): void {
    if (this.score.length < size) {
      const capacity = Math.max(64, size * 2);
      this.score = new Float32Array(capacity);
      this.mask = new Uint32Array(capacity);
      this.stamp = new Uint32Array(capacity);
      this.excluded = new Uint32Array(capacity);
      this.touched = new Int32Array(capacity);
      this.epoch = 0;
    }
    this.epoch += 1;
    this.dense = false;
  }

  /** True when the current query scored (touched) `doc`, or a later step stamped it. */
  scored(doc: number): boolean {
    return this.stamp[doc] === this.epoch || (this.dense && (this.mask[doc] as number) >= TOUCHED);
  }
}

/** Accumulates BM25F scores of every term into `scratch`; returns how many documents were touched. */
export function accumulate(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  nameBonus = 0,
): number {
  const { score, mask, stamp, touched } = scratch;
  const epoch = scratch.epoch;
  const alive = store.alive;
  const checkAlive = store.hasDead;
  let count = 0;
  for (const term of plan.terms) {
    const list = store.postingList(term.id);
    if (list === undefined) continue;
    const saturated = store.contributions(term.id);
    const length = store.postingLength[term.id] ?? 0;
    const factor = termFactor(store, term);
    const nameFactor = termNameFactor(store, term, nameBonus);
    const bit = termBit(term);
    for (let index = 0; index < length; index += 2) {
      const doc = list[index] as number;
      if (checkAlive && alive[doc] !== 1) continue;
      const value = postingScore(
        factor,
        nameFactor,
        saturated[index >> 1] as number,
        list[index + 1] as number,
      );
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

/** Per-term, per-field contributions to one document's BM25F score (before bonuses). */
export function explainDocument(
  store: PostingStore,
  plan: QueryPlan,
  config: RankingConfig,
  doc: number,
): FieldContribution[] {
  store.ensureNorms();
  const out: FieldContribution[] = [];
  const k1 = config.k1;
  for (const term of plan.terms) {
    const list = store.postingList(term.id);
    const length = store.postingLength[term.id] ?? 0;
    if (list === undefined) continue;
    for (let index = 0; index < length; index += 2) {
      if (list[index] !== doc) continue;
      const packed = list[index + 1] ?? 0;
      const parts: number[] = [];
      let weighted = 0;
      for (let field = 0; field < FIELD_COUNT; field += 1) {
        const tf = fieldTf(packed, field);
        const part = tf * (store.fieldNorm[doc * FIELD_COUNT + field] ?? 0);
        parts.push(part);
        weighted += part;
      }
      const total = termFactor(store, term) * saturate(weighted, k1);
      parts.forEach((part, field) => {
        if (part > 0) {
          out.push({
            term: term.term,
            field: FIELD_NAMES[field] ?? "unknown",
            score: (total * part) / weighted,
          });
        }
      });
      break;
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
