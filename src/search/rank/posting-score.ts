/**
 * What one posting adds to a document's score: the single definition every scoring loop
 * (`accumulate`, the dense path, explanations) reads. A posting of a query term adds
 * `factor · saturated`, plus `nameFactor` when the term is in the tool's name, where `saturated`
 * is the posting's BM25F frequency part (`PostingStore.contributions`), `factor` the term's weight
 * × idf and `nameFactor` the name bonus × weight × the term's idf among names.
 */

import { groupBit } from "../query/coverage-table.js";
import type { QueryTerm } from "../query/query-terms.js";
import { NAME_TF_MASK } from "../store/fields.js";
import type { PostingStore } from "../store/posting-store.js";

/** Set in a document's match mask by the dense path to mark it touched (needs at most 31 groups). */
export const TOUCHED = 0x80000000;
/** The group bits of a match mask, without `TOUCHED`. */
export const GROUP_BITS = 0x7fffffff;

/** BM25's inverse document frequency of `df` among `n` documents (always above zero). */
function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The inverse document frequency used everywhere. */
export function idf(store: PostingStore, termId: number): number {
  return bm25Idf(store.liveCount, store.docFrequency[termId] ?? 0);
}

/** The inverse document frequency of a term among tool names (how telling a name match is). */
export function nameIdf(store: PostingStore, termId: number): number {
  return bm25Idf(store.liveCount, store.nameFrequency[termId] ?? 0);
}

/** What each posting's saturated frequency of `term` is multiplied by: its weight × idf. */
export function termFactor(store: PostingStore, term: QueryTerm): number {
  return term.weight * idf(store, term.id);
}

/**
 * What a match of `term` in a tool's name adds: a name match earns extra by how rare the word is
 * among names, not among all text.
 */
export function termNameFactor(store: PostingStore, term: QueryTerm, nameBonus: number): number {
  return nameBonus * term.weight * nameIdf(store, term.id);
}

/** The match-mask bit a term sets: its group's, or none for an expansion (it adds no coverage). */
export function termBit(term: QueryTerm): number {
  return term.expansion ? 0 : groupBit(term.group);
}

/**
 * The score one posting adds, given its saturated frequency and packed field frequencies, and the
 * term's `termFactor` and `termNameFactor`.
 */
export function postingScore(
  factor: number,
  nameFactor: number,
  saturated: number,
  packed: number,
): number {
  const value = factor * saturated;
  return (packed & NAME_TF_MASK) !== 0 ? value + nameFactor : value;
}
