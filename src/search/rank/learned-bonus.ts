/**
 * The learned step of a keyword query, after the lexical top k is scored: a tool whose learned
 * words (what sessions searched before calling it) hold the query's words gains a bounded share
 * of the best lexical score. It can reorder close candidates and bring up a tool the query's
 * words miss, but a tool that shares almost nothing with the query lexically never passes a
 * strong lexical match. A recurring request may lift its tool above a weak first hit, never above
 * a strong one (`liftRecurring`).
 */

import { groupBit } from "../query/coverage-table.js";
import type { QueryPlan } from "../query/query-terms.js";
import { type LearnedField, MIN_REQUESTS } from "../store/learned-field.js";
import { confidenceOf, coversNone } from "./confidence.js";
import { GROUP_BITS } from "./posting-score.js";
import type { ScoreScratch } from "./score-query.js";

/** A learned word the tool's text already contains counts this share (measured: eval-learning.ts). */
export const LEXICAL_OVERLAP = 0.5;
/** Below a strong lexical first hit, a learned-only tool stays at most this share of its score. */
export const UNDER_STRONG = 0.95;
/** Relative difference under which two bonuses are equal (floating-point sums of the same parts). */
const TIE = 1e-9;
/** A recurring request's tool is lifted this share of the best lexical score (times the key's
 * evidence and rarity) above the highest other hit, so better supported tools of one key lead. */
export const RECURRING_LEAD = 0.1;

/** The tools that learned the query's key (`addRecurring`): each one's evidence × rarity. */
interface Recurring {
  key: string;
  /** Every query group, as mask bits: the key holds the whole query. */
  bits: number;
  strength: Map<number, number>;
}

/** What the learned step added to one document, for explanations and confidence. */
export interface LearnedMatch {
  /** Added to the score. */
  bonus: number;
  /** The query groups matched through learned words, as mask bits. */
  bits: number;
  /** Each matched learned word and its part of `bonus` (group -1: the whole query's key, `addRecurring`). */
  words: { word: string; group: number; score: number }[];
}

/** Where the learned step looks and what it may raise. */
export interface LearnedCandidates {
  field: LearnedField;
  idOf: (name: string) => number;
  /** True when `doc` may be raised (not excluded, passes the filters). */
  allowed: (doc: number) => boolean;
  /** The query groups `doc` contains lexically (a word or its inflections, as mask bits) and
   * whether one is in its name (`matchOf`); asked for the first hit only (the others' bits are
   * their match masks). */
  lexical: (doc: number) => { bits: number; nameMatch: boolean };
  /** The best lexical document, or -1. */
  first: number;
  /** True when some allowed document holds every query word lexically, one in its name
   * (`holdsWholeQuery`); asked only when a recurring request would lift a tool. */
  wholeMatch: () => boolean;
  /** The query's whole-query key (`queryKey`), or "" when it has none. */
  key: string;
  /** Brings a learned document's lexical score to the steps the top k's went through (the name
   * fit of a short query) before its bonus is bounded. */
  prepare?: (doc: number) => void;
}

/**
 * Adds `weight × best × share` to each document with learned words of the query, where share is
 * the query's word weight they hold (each word times its evidence weight, at most 1). Returns the
 * raised documents (to re-offer to the top k) and what each gained.
 */
export function addLearnedBonuses(
  scratch: ScoreScratch,
  best: number,
  plan: QueryPlan,
  weight: number,
  candidates: LearnedCandidates,
): { raised: number[]; learned: Map<number, LearnedMatch> } {
  let total = 0;
  for (const group of plan.groups) total += group.weight;
  if (total <= 0 || weight <= 0) return { raised: [], learned: new Map() };
  // with no lexical match at all, learned words still rank among themselves
  const reference = best > 0 ? best : 1;
  const learned = learnedMatches(plan, weight * reference, total, candidates);
  const bits = lexicalBits(scratch);
  discountOverlap(learned, bits);
  const recurring = addRecurring(learned, plan, weight * reference, candidates);
  const firstMatch = candidates.first >= 0 ? candidates.lexical(candidates.first) : undefined;
  const strongFirst =
    firstMatch !== undefined &&
    confidenceOf(plan, firstMatch.bits, firstMatch.nameMatch).level === "strong";
  // level `none` reads the coverage alone: a name match makes no hit under NONE_COVERAGE strong
  const ceiling = (doc: number) =>
    strongFirst && doc !== candidates.first && coversNone(plan, bits(doc))
      ? best * UNDER_STRONG
      : Number.POSITIVE_INFINITY;
  const raised: number[] = [];
  // `forEach`, not `for…of`: an entry array per learned tool was a fifth of a learned search's
  // garbage (hundreds of tools a query in bench/learned-speed.ts), and its scavenges set the p99
  learned.forEach((match, doc) => {
    candidates.prepare?.(doc);
    const bonus = boundedBonus(scratch, doc, match, candidates, ceiling);
    if (bonus <= 0) {
      learned.delete(doc);
      return;
    }
    setBonus(match, bonus);
    scratch.score[doc] = (scratch.score[doc] as number) + bonus;
    raised.push(doc);
  });
  // a recurring request may pass weak lexical hits, never a strong first hit or a tool holding all of it
  // (`liftRecurring`): the one bound usage may not cross
  if (recurring.strength.size > 0 && !strongFirst) {
    const scale = weight * reference;
    liftRecurring(scratch.score, best, learned, recurring, scale, candidates.wholeMatch);
  }
  return { raised, learned };
}

/** Sets a match's bonus, scaling its words' parts to sum to it. */
function setBonus(match: LearnedMatch, bonus: number): void {
  const scale = bonus / match.bonus;
  for (const word of match.words) word.score *= scale;
  match.bonus = bonus;
}

/**
 * A recurring request's tools go first: each tool whose learned key is this query's (the same
 * words, from at least `minSessions` distinct sessions that then called it) is raised above every
 * other hit (its learned part then shows as the key alone), by `RECURRING_LEAD × scale` times the
 * key's evidence weight and rarity, so among several tools of one key the better supported leads.
 * The caller skips it when the lexical first hit is strong, and it is not made when any tool holds
 * every query word with one in its name (`wholeMatch`, asked only when a tool would move): usage
 * may reorder what the words leave open, never overrule a strong match.
 */
function liftRecurring(
  score: Float32Array,
  best: number,
  learned: Map<number, LearnedMatch>,
  recurring: Recurring,
  scale: number,
  wholeMatch: () => boolean,
): void {
  // the highest score of any other hit: lexical scores are at most `best`, raised ones are known
  let top = best;
  for (const doc of learned.keys())
    if (!recurring.strength.has(doc)) top = Math.max(top, score[doc] as number);
  const targetOf = (doc: number) =>
    top + RECURRING_LEAD * scale * (recurring.strength.get(doc) ?? 0);
  // filtered out or vetoed tools are not in `learned`; tools already above their target stay
  const below = [...recurring.strength.keys()].filter(
    (doc) => learned.has(doc) && (score[doc] as number) < targetOf(doc),
  );
  if (below.length === 0 || wholeMatch()) return;
  for (const doc of below) {
    const match = learned.get(doc) as LearnedMatch;
    const target = targetOf(doc);
    const current = score[doc] as number;
    // the key is why the tool is first, so it alone explains the learned part
    match.bonus += target - current;
    match.words = [{ word: recurring.key, group: -1, score: match.bonus }];
    match.bits = recurring.bits;
    score[doc] = target;
  }
}

/** Each document holding learned words of the query, with each word's part: `scale` (the
 * learned weight times the reference score) times its share of the query's `total` word weight. */
function learnedMatches(
  plan: QueryPlan,
  scale: number,
  total: number,
  candidates: LearnedCandidates,
): Map<number, LearnedMatch> {
  const learned = new Map<number, LearnedMatch>();
  plan.groups.forEach((group, index) => {
    const holders = candidates.field.lookup(group.token, candidates.idOf);
    if (holders === undefined) return;
    const rarity = learnedRarity(holders.count, candidates.field.size);
    for (const { doc, weight: evidence, requests } of holders.list) {
      // one request's words are its context: its key counts for it (`addRecurring`)
      if (requests < MIN_REQUESTS) continue;
      const part = (scale * group.weight * evidence * rarity) / total;
      const match = learned.get(doc) ?? { bonus: 0, bits: 0, words: [] };
      match.bonus += part;
      match.bits = (match.bits | groupBit(index)) >>> 0;
      match.words.push({ word: group.token, group: index, score: part });
      learned.set(doc, match);
    }
  });
  return learned;
}

/**
 * The query groups a document holds lexically, as mask bits: its match mask from scoring, where
 * the query's own words (a word or its inflections) set their group's bit and synonyms or
 * neighbours none, so it is what `matchOf` finds in the postings without a lookup; 0 for a
 * document the query did not score.
 */
function lexicalBits(scratch: ScoreScratch): (doc: number) => number {
  const { mask } = scratch;
  return (doc) => (scratch.scored(doc) ? ((mask[doc] as number) & GROUP_BITS) >>> 0 : 0);
}

/**
 * A recurring request: a tool that sessions called after this very query (its key: the same
 * words in any order) takes the query's whole share at that evidence, when that is more than its
 * words earn apart. Click models trust a query's own clicks before its words' (the words are the
 * back-off); the words apart are discounted for what the tool already says, the whole query not.
 * Returns each such tool's key strength (evidence × rarity), for `liftRecurring`.
 */
function addRecurring(
  learned: Map<number, LearnedMatch>,
  plan: QueryPlan,
  scale: number,
  candidates: LearnedCandidates,
): Recurring {
  const recurring = { key: candidates.key, bits: 0, strength: new Map<number, number>() };
  if (candidates.key === "") return recurring;
  const holders = candidates.field.lookup(candidates.key, candidates.idOf);
  if (holders === undefined) return recurring;
  const rarity = learnedRarity(holders.count, candidates.field.size);
  for (let index = 0; index < plan.groups.length; index += 1)
    recurring.bits = (recurring.bits | groupBit(index)) >>> 0;
  for (const { doc, weight: evidence } of holders.list) {
    recurring.strength.set(doc, evidence * rarity);
    const bonus = scale * evidence * rarity;
    const match = learned.get(doc);
    // the words of one query earn what its key does, give or take rounding: a tie keeps the words
    if (match !== undefined && match.bonus >= bonus * (1 - TIE)) continue;
    learned.set(doc, {
      bonus,
      bits: recurring.bits,
      words: [{ word: candidates.key, group: -1, score: bonus }],
    });
  }
  return recurring;
}

/**
 * A learned word the tool's own text already holds counts half: the field's news is the
 * vocabulary the tool lacks ("open" for create_issue); in full, a learned "diagram" lifted
 * generate_flow_diagram over generate_sankey_chart for "sankey diagram".
 */
function discountOverlap(
  learned: Map<number, LearnedMatch>,
  lexical: (doc: number) => number,
): void {
  learned.forEach((match, doc) => {
    const bits = lexical(doc);
    match.bonus = 0;
    for (const word of match.words) {
      if ((bits & groupBit(word.group)) !== 0) word.score *= LEXICAL_OVERLAP;
      match.bonus += word.score;
    }
  });
}

/**
 * The bonus `doc` may take (0: none): not for a document the filters exclude or the query
 * vetoed (negative score), and never past `ceiling(doc)` in all. Readies an unscored document's
 * score and mask.
 */
function boundedBonus(
  scratch: ScoreScratch,
  doc: number,
  match: LearnedMatch,
  candidates: LearnedCandidates,
  ceiling: (doc: number) => number,
): number {
  if (!candidates.allowed(doc)) return 0;
  const { score, mask, stamp } = scratch;
  if (!scratch.scored(doc)) {
    stamp[doc] = scratch.epoch;
    score[doc] = 0;
    // matched no query word lexically: no bits left over from an earlier query
    mask[doc] = 0;
  } else if ((score[doc] as number) < 0) return 0;
  if (match.bonus <= 0) return 0;
  const before = score[doc] as number;
  return Math.max(0, Math.min(match.bonus, ceiling(doc) - before));
}

/**
 * How much a learned word says about a tool, by how many tools learned it: 1 for a word one tool
 * learned, falling as idf does towards words every learned tool holds ("list", "get").
 */
function learnedRarity(holders: number, tools: number): number {
  return tools <= 1 ? 1 : Math.log(1 + tools / holders) / Math.log(1 + tools);
}
