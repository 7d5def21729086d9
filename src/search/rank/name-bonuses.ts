/**
 * The name steps of a keyword query, after the top k is scored: a tool whose name holds the
 * query's words as a phrase gains a share of the best score, and a tool named exactly by the query
 * (or by its suffix, `ask_codex`) is pinned above every other hit.
 */

import type { ScoreScratch } from "./score-query.js";

/** What the name steps added to one document, for explanations. */
export interface NameBonus {
  /** Added for a whole-phrase name match. */
  phrase?: number;
  /** The pinned score that replaced the document's own. */
  pinned?: number;
}

/** The documents the name steps raised (to re-offer to the top k) and what each gained. */
export interface NameBonuses {
  raised: number[];
  bonuses: Map<number, NameBonus>;
}

/** Where the name steps look, and which documents they may raise. */
export interface NameCandidates {
  /** Documents whose name phrase equals the query's. */
  phrase: Iterable<number>;
  /** Documents named by the query (exact or lowercased name, or name suffix). */
  pinned: readonly number[];
  /** True when a phrase match must be dropped; may set its score below 0 (see `rankTouched`). */
  fails: ((doc: number) => boolean) | undefined;
  /** True when a named document may be pinned (not excluded, passes the filters). */
  pinnable: (doc: number) => boolean;
  /** True when the query is the document's name, not only its suffix (pinned higher). */
  exact: (doc: number) => boolean;
}

/**
 * Adds the phrase bonus (`namePhraseBonus` × the best score `best`) to scored phrase matches, then
 * pins named documents at `head · (1 + exact) + 1`, keeping their own score as a tie-break.
 */
export function addNameBonuses(
  scratch: ScoreScratch,
  best: number,
  namePhraseBonus: number,
  candidates: NameCandidates,
): NameBonuses {
  const { score, mask, stamp } = scratch;
  const raised: number[] = [];
  const bonuses = new Map<number, NameBonus>();
  let head = best;
  for (const doc of candidates.phrase) {
    if (!scratch.scored(doc) || (score[doc] as number) < 0) continue;
    if (candidates.fails?.(doc)) continue;
    score[doc] = (score[doc] as number) + best * namePhraseBonus;
    bonuses.set(doc, { phrase: best * namePhraseBonus });
    head = Math.max(head, score[doc] as number);
    raised.push(doc);
  }
  for (const doc of candidates.pinned) {
    if (!candidates.pinnable(doc)) continue;
    if (!scratch.scored(doc)) {
      stamp[doc] = scratch.epoch;
      score[doc] = 0;
      // matched no query word: no bits left over from an earlier query
      mask[doc] = 0;
    } else if ((score[doc] as number) < 0) continue;
    const exact = candidates.exact(doc) ? 2 : 1;
    score[doc] = head * (1 + exact) + 1 + (score[doc] as number) * 1e-3;
    bonuses.set(doc, { pinned: score[doc] as number });
    raised.push(doc);
  }
  return { raised, bonuses };
}
