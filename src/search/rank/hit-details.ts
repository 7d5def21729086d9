/**
 * What a keyword hit carries besides its name and score: its companions, its confidence and, on
 * request, its score in parts that add up (`ScoreParts`).
 */

import type { ToolDefinition } from "../../catalog/index.js";
import type { CoverageTable } from "../query/coverage-table.js";
import type { QueryPlan } from "../query/query-terms.js";
import type { RankingConfig } from "../ranking-config.js";
import { NAME_TF_MASK } from "../store/fields.js";
import type { PostingStore } from "../store/posting-store.js";
import type { SearchHit } from "../types.js";
import { type CompanionLink, companionReason } from "./companions.js";
import { confidenceOf, matchOf } from "./confidence.js";
import type { LearnedMatch } from "./learned-bonus.js";
import type { NameBonus } from "./name-bonuses.js";
import { termNameFactor } from "./posting-score.js";
import { explainDocument } from "./score-query.js";

/** What the query left for building its hits. */
export interface HitContext {
  plan: QueryPlan;
  coverage: CoverageTable;
  /** Companions by the document they are attached to. */
  links: ReadonlyMap<number, readonly CompanionLink[]>;
  /** For a flat ranking: companion → the hit it was placed after. */
  placedAfter: ReadonlyMap<number, number> | undefined;
  explain: boolean;
  /** What the name steps added: doc → phrase bonus, or the pinned score. */
  bonuses: ReadonlyMap<number, NameBonus>;
  /** Scores before aspect diversification (only when it ran and `explain` is set). */
  undiversified: ReadonlyMap<number, number> | undefined;
  /** What the learned step added, by document (undefined when the index has no learned words). */
  learned?: ReadonlyMap<number, LearnedMatch> | undefined;
  /** The name-fit multiplier by document (undefined when the query was not short). */
  nameFit?: ReadonlyMap<number, number> | undefined;
  /** Destructive tools the query did not ask for, scaled by `unaskedDestructive`. */
  unasked?: ReadonlySet<number> | undefined;
}

/** Builds the hit of `doc` with score `score` (rounded to 4 decimals for display). */
export function buildHit(
  store: PostingStore,
  config: RankingConfig,
  tools: readonly (ToolDefinition | undefined)[],
  doc: number,
  score: number,
  context: HitContext,
): SearchHit {
  const tool = tools[doc] as ToolDefinition;
  const hit: SearchHit = { name: tool.name, score: Math.round(score * 1e4) / 1e4, tool };
  const { plan } = context;
  const match = matchOf(store, plan, doc);
  const learned = context.learned?.get(doc);
  // a word sessions searched before calling the tool counts as a word it contains
  const bits = learned === undefined ? match.bits : (match.bits | learned.bits) >>> 0;
  hit.confidence = confidenceOf(plan, bits, match.nameMatch);
  const links = context.links.get(doc);
  if (links !== undefined) {
    hit.companions = links.map((link) => ({
      name: (tools[link.doc] as ToolDefinition).name,
      reason: companionReason(link),
      via: link.via,
    }));
  }
  const after = context.placedAfter?.get(doc);
  if (after !== undefined) hit.companionOf = (tools[after] as ToolDefinition).name;
  if (!context.explain) return hit;
  const explanation = explainDocument(store, plan, config, doc);
  hit.explanation = explanation;
  let terms = 0;
  for (const part of explanation) terms += part.score;
  let nameBonus = 0;
  for (const term of plan.terms) {
    if (inName(store, term.id, doc)) nameBonus += termNameFactor(store, term, config.nameBonus);
  }
  const bonus = context.bonuses.get(doc);
  const before = context.undiversified?.get(doc);
  hit.scoreParts = {
    terms,
    nameBonus,
    coverage: context.coverage.multiplier(match.bits),
    phraseBonus: bonus?.phrase ?? 0,
    diversity: before !== undefined && before > 0 ? score / before : 1,
  };
  const fit = context.nameFit?.get(doc);
  if (fit !== undefined) hit.scoreParts.nameFit = fit;
  if (learned !== undefined) {
    hit.scoreParts.learned = learned.bonus;
    for (const word of learned.words) {
      explanation.push({ term: word.word, field: "learned", score: word.score });
    }
  }
  if (context.unasked?.has(doc)) hit.scoreParts.unasked = config.unaskedDestructive;
  if (bonus?.pinned !== undefined) hit.scoreParts.pinned = bonus.pinned;
  if (hit.companionOf !== undefined) hit.scoreParts.companionOf = hit.companionOf;
  return hit;
}

/** True when `doc` has term `id` in its name field. */
function inName(store: PostingStore, id: number, doc: number): boolean {
  const list = store.postingList(id);
  const length = store.postingLength[id] ?? 0;
  if (list === undefined) return false;
  for (let index = 0; index < length; index += 2) {
    if (list[index] === doc) return ((list[index + 1] as number) & NAME_TF_MASK) !== 0;
  }
  return false;
}

/**
 * The score the parts give: `pinned`, or `(terms + nameBonus) × coverage × nameFit × unasked +
 * phraseBonus + learned`, times `diversity`; 0 for a companion the query did not score.
 */
export function scoreFromParts(parts: NonNullable<SearchHit["scoreParts"]>): number {
  const scaled =
    (parts.terms + parts.nameBonus) * parts.coverage * (parts.nameFit ?? 1) * (parts.unasked ?? 1);
  const base = parts.pinned ?? scaled + parts.phraseBonus + (parts.learned ?? 0);
  return base * parts.diversity;
}
