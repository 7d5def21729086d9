/**
 * A keyword query from words to hits: plan, score into a top k, name bonuses, diversification,
 * companions and hit details. It reads the indexed tools it is given (store/) and keeps only
 * query scratch and the companion tables; `ToolSearchIndex` (tool-search-index.ts) composes it
 * with the entry points and the other query modes.
 */
import type { ToolDefinition } from "../catalog/index.js";
import { queryKey, splitIdentifier, tokenize } from "../text/index.js";
import { type CoverageTable, coverageTable } from "./query/coverage-table.js";
import type { ParsedQuery } from "./query/parse-query.js";
import { NeighborCache, planQuery, type QueryPlan } from "./query/query-terms.js";
import { rewriteValues } from "./query/query-values.js";
import { CompanionFacts } from "./rank/companion-facts.js";
import { type CompanionLink, companionsOf, placeCompanions } from "./rank/companions.js";
import { holdsWholeQuery, markIncidental, matchOf } from "./rank/confidence.js";
import { scoreAndRank } from "./rank/dense-score.js";
import { diversifyByAspect } from "./rank/diversify.js";
import { buildHit } from "./rank/hit-details.js";
import {
  addLearnedBonuses,
  type LearnedCandidates,
  type LearnedMatch,
} from "./rank/learned-bonus.js";
import { MentionIndex } from "./rank/mentions.js";
import { addNameBonuses } from "./rank/name-bonuses.js";
import {
  NAME_FIT_MAX_WORDS,
  NAME_FIT_POOL,
  type NamedTools,
  NameFit,
  NameWords,
} from "./rank/name-fit.js";
import { PrerequisiteIndex } from "./rank/prerequisites.js";
import { ScoreScratch } from "./rank/score-query.js";
import { TopK } from "./rank/top-k.js";
import { UnaskedDestructive } from "./rank/unasked-destructive.js";
import type { RankingConfig } from "./ranking-config.js";
import type { IndexedTools } from "./store/indexed-tools.js";
import { type LearnedEntry, LearnedField } from "./store/learned-field.js";
import type { NameLookup } from "./store/name-lookup.js";
import { phraseKey } from "./store/phrase-key.js";
import type { PostingStore } from "./store/posting-store.js";
import type { SearchHit, SearchOptions } from "./types.js";

/** Hits that get companions attached (`companions.ts`). */
const COMPANION_HITS = 10;
/**
 * Hits whose companions a flat ranking places right after them: only the first. Placing those of
 * the top 10 pushed direct matches out of the top 5 (R@5 −0.004 on both bench halves, −0.017 on
 * the real-catalog set).
 */
const PLACED_HITS = 1;
/** Extra places in the top k when destructive tools may be lowered, for the tools below them. */
const UNASKED_MARGIN = 10;
const NO_DOCS: number[] = [];

/** The best document of `top` after some of its scores changed, or -1 when it is empty. */
function bestOf(top: TopK): number {
  let best = -1;
  for (const doc of top.docs()) if (best < 0 || top.before(doc, best)) best = doc;
  return best;
}

/**
 * What a keyword query returns: `cut` hits (the tail cut applied), a `flat` ranking (no cut; each
 * hit lists its companions and the first hit's are placed after it), or `names`: a flat ranking
 * whose caller reads only the names (`rank`), so only the first hit's companions are looked up
 * and hits carry no details (confidence, companion lists), nor a miss its suggestions.
 */
export type HitShape = "cut" | "flat" | "names";

/** A query scored into its top k, before the learned and name steps. */
interface ScoredQuery {
  top: TopK;
  best: number;
  coverage: CoverageTable;
  /** Marks documents a server or caller filter rejects (undefined when there is none). */
  fails: ((doc: number) => boolean) | undefined;
  /** The name fit of a short query (`name-fit.ts`), already applied to `top`. */
  fit: NameFit | undefined;
}

/** The keyword engine over the indexed tools; see the module comment. */
export class KeywordSearch {
  /** Score scratch, shared with browse mode's `-word` exclusion (`markExcluded`). */
  readonly scratch = new ScoreScratch();
  // the parts of the indexed tools a query reads, held directly: they are read per posting
  private readonly store: PostingStore;
  private readonly tools: readonly (ToolDefinition | undefined)[];
  private readonly lookup: NameLookup;
  private readonly prerequisites: PrerequisiteIndex;
  private readonly mentions: MentionIndex;
  /** What the companion steps read of each tool; a snapshot carries it (`companion-facts.ts`). */
  readonly facts: CompanionFacts;
  /** Destructive tools and the name words that carry their act; a snapshot carries them too
   * (`unasked-destructive.ts`). */
  readonly destructive: UnaskedDestructive;
  /** Words sessions searched before calling each tool (`learned-field.ts`); empty unless set. */
  private readonly learned = new LearnedField();
  private readonly neighbors = new NeighborCache();
  /** Each tool's name words, for the name-fit step of short queries; a snapshot carries them
   * (`name-fit.ts`). */
  readonly nameWords: NameWords;
  private readonly names: NamedTools;
  /** Coverage tables of queries of up to 6 groups (longer ones take a new table). */
  private readonly coverageScratch = new Float64Array(64);

  constructor(
    indexed: IndexedTools,
    private readonly config: RankingConfig,
  ) {
    this.store = indexed.store;
    this.tools = indexed.tools;
    this.lookup = indexed.lookup;
    const facts = new CompanionFacts(indexed.tools);
    this.facts = facts;
    this.prerequisites = new PrerequisiteIndex(indexed.tools, (id) => facts.needsOf(id));
    const idOf = (name: string) => indexed.lookup.idOf(name);
    this.mentions = new MentionIndex(indexed.tools, idOf, (id) => facts.wordsOf(id));
    this.destructive = new UnaskedDestructive(indexed.store);
    indexed.watch(facts);
    indexed.watch(this.destructive);
    indexed.watch(this.prerequisites);
    indexed.watch(this.learned);
    this.nameWords = new NameWords(indexed.store, indexed.tools);
    this.names = { words: this.nameWords, tools: indexed.tools };
    indexed.watch(this.nameWords);
  }

  /**
   * A keyword query in steps: plan the words, score and rank them into a top k
   * (`scoreKeywords`), raise name matches (`addNameBonuses`), choose the hits (`selectHits`:
   * diversification), attach companions (placed after their hit in a flat ranking), then build
   * each hit with its details, stopping at the tail cut.
   */
  search(
    parsed: ParsedQuery,
    limit: number,
    shape: HitShape,
    options: SearchOptions | undefined,
  ): SearchHit[] {
    const words = rewriteValues(parsed.words);
    const plan = planQuery(words, parsed.required, this.store, this.config, this.neighbors);
    const diversify =
      this.config.diversity > 0 && plan.groups.length >= this.config.diversityMinWords;
    const lowers = this.config.unaskedDestructive < 1 && this.destructive.active;
    // lowered tools make room: a wider pool lets the ones below them in
    const margin = lowers ? UNASKED_MARGIN : 0;
    const scored = this.scoreKeywords(parsed, plan, { limit, margin, diversify }, options);
    const { fit } = scored;
    const { score, excluded, epoch } = this.scratch;
    const allowed = (doc: number) =>
      excluded[doc] !== epoch && this.passes(this.tools[doc] as ToolDefinition, parsed, options);
    const lowered = lowers ? this.lowerUnasked(plan, scored.top) : NO_DOCS;
    const head = lowered.length > 0 ? bestOf(scored.top) : scored.top.first();
    const learned = this.learnedStep(plan, parsed.text, head, scored.best, allowed, fit);
    const { raised, bonuses } = addNameBonuses(
      this.scratch,
      scored.best,
      this.config.namePhraseBonus,
      {
        phrase: this.lookup.idsByPhrase(phraseKey(splitIdentifier(parsed.text))),
        pinned: this.pinnedIds(parsed.text),
        fails: scored.fails,
        pinnable: (doc) => this.tools[doc] !== undefined && allowed(doc),
        exact: (doc) => this.tools[doc]?.name.toLowerCase() === parsed.text.toLowerCase(),
      },
    );
    if (learned.raised.length > 0) raised.push(...learned.raised);
    // re-offered so the top k sorts them again (`finish`), now lower
    if (lowered.length > 0) raised.push(...lowered);
    const explain = options?.explain === true;
    const chosen = this.selectHits(scored.top, raised, plan, limit, diversify, explain);
    // a ranking of names places the first hit's companions only: the others' are never read
    const linked = shape === "names" ? PLACED_HITS : COMPANION_HITS;
    const links = this.companionLinks(chosen.selected, allowed, linked);
    let selected = chosen.selected;
    let placedAfter: Map<number, number> | undefined;
    const cut = shape === "cut";
    if (!cut && links.size > 0) {
      // a flat ranking lists each hit's companions right after it
      const placed = placeCompanions(selected, links, limit, PLACED_HITS);
      selected = placed.order;
      placedAfter = placed.placedAfter;
    }
    const first = selected.length > 0 ? (score[selected[0] as number] as number) : 0;
    const hits: SearchHit[] = [];
    const { coverage } = scored;
    const { undiversified } = chosen;
    // a ranking of names reads no confidence or companion list: bare hits, and no hit context
    const context =
      shape === "names"
        ? undefined
        : {
            ...{ plan, coverage, links, placedAfter, explain, bonuses, undiversified },
            learned: learned.learned,
            nameFit: fit?.factors,
            unasked: lowered.length > 0 ? new Set(lowered) : undefined,
          };
    for (const doc of selected) {
      const companion = placedAfter?.get(doc);
      const value =
        companion === undefined || this.scratch.scored(doc) ? (score[doc] as number) : 0;
      if (cut && value < first * this.config.tailCut) break;
      if (context === undefined) {
        const tool = this.tools[doc] as ToolDefinition;
        hits.push({ name: tool.name, score: Math.max(0, value), tool });
      } else {
        hits.push(buildHit(this.store, this.config, this.tools, doc, Math.max(0, value), context));
      }
    }
    markIncidental(hits, plan.groups.length);
    return hits;
  }

  /**
   * Sets the learned field: by tool name, stemmed words with a weight in (0, 1] each (usually
   * `UsageEvidence.learnedWords()`); replaces what was set before. An empty map turns it off.
   */
  setLearned(words: ReadonlyMap<string, readonly LearnedEntry[]>): void {
    this.learned.set(words);
  }

  /** The learned words of a tool (empty when it has none). */
  learnedWords(name: string): readonly LearnedEntry[] {
    return this.learned.of(name);
  }

  /**
   * Scales down the destructive tools of the top k that the query does not ask for
   * (`unasked-destructive.ts`); returns them.
   */
  private lowerUnasked(plan: QueryPlan, top: TopK): number[] {
    const { score } = this.scratch;
    let lowered = NO_DOCS;
    for (const doc of top.docs()) {
      if (!this.destructive.unasked(doc, plan.terms)) continue;
      if (lowered === NO_DOCS) lowered = [];
      score[doc] = (score[doc] as number) * this.config.unaskedDestructive;
      lowered.push(doc);
    }
    return lowered;
  }

  /** The learned step (`learned-bonus.ts`); nothing to do, and no cost, without learned words. */
  private learnedStep(
    plan: QueryPlan,
    text: string,
    first: number,
    best: number,
    allowed: (doc: number) => boolean,
    fit: NameFit | undefined,
  ): { raised: number[]; learned: Map<number, LearnedMatch> | undefined } {
    if (this.learned.empty) return { raised: [], learned: undefined };
    const candidates: LearnedCandidates = {
      field: this.learned,
      idOf: (name: string) => this.lookup.idOf(name),
      allowed: (doc: number) => this.tools[doc] !== undefined && allowed(doc),
      lexical: (doc: number) => matchOf(this.store, plan, doc),
      first,
      wholeMatch: () => holdsWholeQuery(this.store, plan, this.scratch, candidates.allowed),
      key: queryKey(text),
    };
    // a learned tool from outside the fitted top k meets the name fit the top k met
    if (fit !== undefined) candidates.prepare = (doc) => fit.fit(doc);
    return addLearnedBonuses(this.scratch, best, plan, this.config.learnedWeight, candidates);
  }

  /**
   * Scores `plan` into a top k of `pool` documents, dropping those excluded by `-word` or failing
   * a server or caller filter (`fails` marks them with a score below 0).
   */
  private scoreKeywords(
    parsed: ParsedQuery,
    plan: QueryPlan,
    size: { limit: number; margin: number; diversify: boolean },
    options: SearchOptions | undefined,
  ): ScoredQuery {
    // diversification picks from a wider pool, lowered tools make room for `margin` more, and the
    // name fit re-ranks at least the top 10
    const fitName = this.config.nameFit > 0 && plan.groups.length <= NAME_FIT_MAX_WORDS;
    const { limit, margin, diversify } = size;
    const pool = diversify
      ? Math.max(limit * 4, 40)
      : Math.max(limit + margin, fitName ? NAME_FIT_POOL : 0);
    const scratch = this.scratch;
    scratch.begin(this.store.nextId + 1);
    const score = scratch.score;
    for (const word of parsed.excluded) this.markExcluded(word, scratch.epoch);
    const top = new TopK(pool, score, this.tools);
    const fails =
      parsed.servers.length > 0 || options?.filter !== undefined
        ? (doc: number) => {
            if (!this.passes(this.tools[doc] as ToolDefinition, parsed, options)) score[doc] = -1;
            return (score[doc] as number) < 0;
          }
        : undefined;
    const { coverage: coverageWeight, longQuery } = this.config;
    const coverage = coverageTable(plan, coverageWeight, longQuery, this.coverageScratch);
    const excludes = parsed.excluded.length > 0;
    const best = scoreAndRank(
      this.store,
      plan,
      scratch,
      this.config,
      coverage,
      excludes,
      top,
      fails,
    );
    const scored: ScoredQuery = { top, best, coverage, fails, fit: undefined };
    if (fitName) {
      scored.fit = new NameFit(scratch, this.store, this.names, plan, this.config.nameFit);
      scored.best = scored.fit.fitTop(top);
    }
    return scored;
  }

  /**
   * The first `limit` of the top k (with the name steps' `raised` documents re-offered), after aspect diversification when `diversify`;
   * with `explain`, also each document's score before diversification.
   */
  private selectHits(
    top: TopK,
    raised: readonly number[],
    plan: QueryPlan,
    limit: number,
    diversify: boolean,
    explain: boolean,
  ): { selected: number[]; undiversified: Map<number, number> | undefined } {
    const { score, mask } = this.scratch;
    let selected = top.finish(raised);
    const undiversified = explain && diversify ? new Map<number, number>() : undefined;
    if (undiversified) for (const doc of selected) undiversified.set(doc, score[doc] as number);
    if (diversify) {
      const weights = plan.groups.map((group) => group.weight);
      const { diversity } = this.config;
      const before = (a: number, b: number) => top.before(a, b);
      selected = diversifyByAspect(selected, limit, score, mask, weights, diversity, before);
    }
    if (selected.length > limit) selected = selected.slice(0, limit);
    return { selected, undiversified };
  }

  /** The companions of the first `count` selected documents (`companions.ts`), by document. */
  private companionLinks(
    selected: readonly number[],
    allowed: (doc: number) => boolean,
    count: number,
  ): Map<number, CompanionLink[]> {
    const links = new Map<number, CompanionLink[]>();
    if (!this.config.finderCompanions && !this.config.mentionCompanions) return links;
    const steps = { finders: this.prerequisites, mentions: this.mentions };
    for (const doc of selected.slice(0, count)) {
      const found = companionsOf(doc, this.config, steps, allowed);
      if (found.length > 0) links.set(doc, found);
    }
    return links;
  }

  private pinnedIds(text: string): number[] {
    const lower = text.trim().toLowerCase();
    if (lower.length === 0 || /\s/.test(lower)) return [];
    return [...this.lookup.idsByLowerName(lower), ...this.lookup.idsBySuffix(lower)];
  }

  passes(tool: ToolDefinition, parsed: ParsedQuery, options?: SearchOptions): boolean {
    if (parsed.servers.length > 0) {
      const server = (tool.server ?? "").toLowerCase();
      if (!parsed.servers.includes(server)) return false;
    }
    return options?.filter ? options.filter(tool) : true;
  }

  markExcluded(word: string, epoch: number): void {
    for (const token of tokenize(word)) {
      for (const id of this.store.stemGroup(token)) {
        const list = this.store.postingList(id);
        if (list === undefined) continue;
        const length = this.store.postingLength[id] ?? 0;
        for (let index = 0; index < length; index += 2) {
          this.scratch.excluded[list[index] as number] = epoch;
        }
      }
    }
  }
}
