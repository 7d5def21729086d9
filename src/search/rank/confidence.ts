/**
 * The confidence of a hit: which of the query's words it contains (by their weights, so "please"
 * counts less than "pipeline") and whether one of them is in its name. A query that no tool
 * serves ("book a flight") still returns hits, but they contain a word or two of it at most, and
 * rarely in the name; the level lets the caller say so instead of offering them as answers.
 */

import { groupBit } from "../query/coverage-table.js";
import type { QueryPlan } from "../query/query-terms.js";
import { NAME_TF_MASK } from "../store/fields.js";
import type { PostingStore } from "../store/posting-store.js";
import type { MatchConfidence, SearchHit } from "../types.js";
import type { ScoreScratch } from "./score-query.js";

/** A hit is `strong` from this covered share on, with a query word in its name. */
export const STRONG_COVERAGE = 0.6;
/** A request of more words than this carries its own content (names, values): a missing rare
 * word is normal there, so a strong hit needs only a name match and this share. */
export const SHORT_QUERY_WORDS = 4;
/** The share a strong hit of a longer request needs. */
export const STRONG_REQUEST_COVERAGE = 0.5;
/** Below this covered share a hit is `none`: it shares at most a minor word with the query. */
export const NONE_COVERAGE = 0.3;

/** Where `doc` is in a posting list (pairs of doc id and packed frequencies), or -1. */
function findPosting(list: Uint32Array, length: number, doc: number): number {
  let low = 0;
  let high = (length >> 1) - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = list[middle * 2] as number;
    if (at === doc) return middle * 2;
    if (at < doc) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/**
 * The query groups `doc` contains through a word or its inflections (not synonyms or prefix
 * neighbours), as mask bits, and whether any of them is in its name field.
 */
export function matchOf(
  store: PostingStore,
  plan: QueryPlan,
  doc: number,
): { bits: number; nameMatch: boolean } {
  let bits = 0;
  let nameMatch = false;
  for (const term of plan.terms) {
    if (term.expansion) continue;
    const list = store.postingList(term.id);
    if (list === undefined) continue;
    const at = findPosting(list, store.postingLength[term.id] ?? 0, doc);
    if (at < 0) continue;
    bits = (bits | groupBit(term.group)) >>> 0;
    if (((list[at + 1] as number) & NAME_TF_MASK) !== 0) nameMatch = true;
  }
  return { bits, nameMatch };
}

/**
 * True when some document `allowed` admits holds every query group through a word or its
 * inflections, one of them in its name (a complete lexical match, whatever its score). Walks the
 * posting lists of the query's own words (not synonyms or neighbours) for name postings only: a
 * complete match has one, and its match mask in `scratch` (the query's scoring filled it with
 * those words' groups) then says whether it holds every group. A bit test per posting: walking one
 * word's postings and looking each document up in the others cost ~0.3 ms at 10k tools for two
 * common words that 2,600 tools share (bench/learned-speed.ts).
 */
export function holdsWholeQuery(
  store: PostingStore,
  plan: QueryPlan,
  scratch: ScoreScratch,
  allowed: (doc: number) => boolean,
): boolean {
  const groups = plan.groups.length;
  // a match mask keeps 31 group bits (the dense path's TOUCHED is the 32nd); keys have at most 12
  if (groups === 0 || groups > 31) return false;
  const all = 2 ** groups - 1;
  const { mask } = scratch;
  for (const term of plan.terms) {
    if (term.expansion) continue;
    const list = store.postingList(term.id);
    if (list === undefined) continue;
    const length = store.postingLength[term.id] ?? 0;
    for (let at = 0; at < length; at += 2) {
      if (((list[at + 1] as number) & NAME_TF_MASK) === 0) continue;
      const doc = list[at] as number;
      if (((mask[doc] as number) & all) >>> 0 !== all || !scratch.scored(doc)) continue;
      if (allowed(doc)) return true;
    }
  }
  return false;
}

/** The share of the query's word weight the groups `bits` hold (see `matchOf`). */
export function coveredShare(plan: QueryPlan, bits: number): number {
  let total = 0;
  let matched = 0;
  const { groups } = plan;
  for (let index = 0; index < groups.length; index += 1) {
    const weight = (groups[index] as QueryPlan["groups"][number]).weight;
    total += weight;
    if (index < 32 && (bits & (2 ** index)) !== 0) matched += weight;
  }
  return total > 0 ? matched / total : 0;
}

/**
 * True when a hit holding the groups `bits` is `none` (`confidenceOf`'s level): the learned step
 * asks it of hundreds of documents a query, so it reads the share without building a confidence.
 */
export function coversNone(plan: QueryPlan, bits: number): boolean {
  return coveredShare(plan, bits) < NONE_COVERAGE;
}

/** The confidence of a hit whose matched groups are `bits` (see `matchOf`). */
export function confidenceOf(plan: QueryPlan, bits: number, nameMatch: boolean): MatchConfidence {
  // in a short query, a missing word of full weight (no common English word) names what it is
  // about ("pizza" in "order a pizza for delivery")
  let missesRare = false;
  const missing: string[] = [];
  plan.groups.forEach((group, index) => {
    if (index < 32 && (bits & (2 ** index)) !== 0) return;
    missing.push(group.token);
    if (group.weight >= 1) missesRare = true;
  });
  const coverage = coveredShare(plan, bits);
  const strong =
    plan.groups.length > SHORT_QUERY_WORDS
      ? coverage >= STRONG_REQUEST_COVERAGE
      : coverage >= STRONG_COVERAGE && !missesRare;
  const level = nameMatch && strong ? "strong" : coverage < NONE_COVERAGE ? "none" : "weak";
  return { level, coverage: Math.round(coverage * 1000) / 1000, nameMatch, missing };
}

/** Query words from which the incidental-match rule applies (`markIncidental`). */
export const INCIDENTAL_MIN_WORDS = 3;

/**
 * When a query of several words finds only tools that each hold one of them ("run shell command
 * execute code": a `run` here, a `code` there), the hits are incidental, not answers: every hit
 * becomes `none`, so disclosure names them as the closest and reveals none, instead of offering
 * a plausible list the model keeps rephrasing against. `groups` is the query's word count.
 */
export function markIncidental(hits: readonly SearchHit[], groups: number): void {
  if (groups < INCIDENTAL_MIN_WORDS || hits.length === 0) return;
  for (const hit of hits) {
    const confidence = hit.confidence;
    if (confidence === undefined || groups - confidence.missing.length > 1) return;
  }
  for (const hit of hits) (hit.confidence as MatchConfidence).level = "none";
}
