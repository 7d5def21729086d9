/** The search index over a tool catalog: incremental BM25F, the query language, regex and browse modes. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { splitIdentifier, tokenize } from "../text/index.js";
import { compileRegex } from "./fallback/regex-search.js";
import { browseHits, type NamedTools, regexHits, stopWordNameHits } from "./fallback/scan-modes.js";
import { summarizeServers } from "./fallback/suggest.js";
import { suggestNames } from "./fallback/suggest-names.js";
import { type CoverageTable, coverageTable } from "./query/coverage-table.js";
import { matchServers } from "./query/match-servers.js";
import { type ParsedQuery, parseQuery } from "./query/parse-query.js";
import { NeighborCache, planQuery, type QueryPlan } from "./query/query-terms.js";
import { rewriteValues } from "./query/query-values.js";
import { type CompanionLink, companionsOf, placeCompanions } from "./rank/companions.js";
import { scoreAndRank } from "./rank/dense-score.js";
import { diversifyByAspect } from "./rank/diversify.js";
import { buildHit } from "./rank/hit-details.js";
import { addNameBonuses } from "./rank/name-bonuses.js";
import { ScoreScratch } from "./rank/score-query.js";
import { TopK } from "./rank/top-k.js";
import { IndexedTools } from "./store/indexed-tools.js";
import { phraseKey } from "./store/phrase-key.js";
import type { SearchHit, SearchOptions, SearchResult, ServerSummary } from "./types.js";

export type { SearchIndexOptions } from "./store/indexed-tools.js";

/** Default number of hits. */
export const DEFAULT_LIMIT = 5;
/** Largest `limit` accepted by `search`. */
export const MAX_LIMIT = 25;
/** Largest `k` accepted by `rank`. */
export const MAX_RANK = 1000;
/** Hits that get companions attached (`companions.ts`). */
const COMPANION_HITS = 10;
/**
 * Hits whose companions a flat ranking places right after them: only the first. Placing those of
 * the top 10 pushed direct matches out of the top 5 (R@5 −0.004 on both bench halves, −0.017 on
 * the real-catalog set).
 */
const PLACED_HITS = 1;

function checkLimit(
  value: number | undefined,
  fallback: number,
  max: number,
  label: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ToolsiftError(
      "invalid_option",
      `${label} must be an integer from 1 to ${max}; got ${String(value)}.`,
    );
  }
  return value;
}

/** An incremental BM25F index over tools; add, remove and replace never rebuild the whole index. */
export class ToolSearchIndex extends IndexedTools {
  private readonly scratch = new ScoreScratch();
  /** The tools in name order, for the modes that scan them (`scan-modes.ts`). */
  private readonly named: NamedTools = {
    names: () => this.names(),
    get: (name) => this.get(name) as ToolDefinition,
  };
  private readonly neighbors = new NeighborCache();
  /** Coverage tables of queries of up to 6 groups (longer ones take a new table). */
  private readonly coverageScratch = new Float64Array(64);

  /** Every indexed tool, in name order. */
  list(): ToolDefinition[] {
    return this.names().map((name) => this.get(name) as ToolDefinition);
  }

  /**
   * Searches the index. Hits are ordered by score (desc) then name; default limit 5, at most 25.
   * @example index.search("create a github issue", { limit: 3, explain: true })
   */
  search(query: string, options?: SearchOptions): SearchResult {
    const limit = checkLimit(options?.limit, DEFAULT_LIMIT, MAX_LIMIT, "limit");
    const parsed = parseQuery(query, options?.mode ?? "auto");
    return this.run(parsed, query, limit, options, options?.cut ?? true);
  }

  /** The names of the top `k` tools for a query: same engine as `search`, without the tail cut. */
  rank(query: string, k: number, options?: Omit<SearchOptions, "limit" | "cut">): string[] {
    const count = checkLimit(k, 10, MAX_RANK, "k");
    const parsed = parseQuery(query, options?.mode ?? "auto");
    return this.run(parsed, query, count, options, false).hits.map((hit) => hit.name);
  }

  private run(
    parsed: ParsedQuery,
    query: string,
    limit: number,
    options: SearchOptions | undefined,
    cut: boolean,
  ): SearchResult {
    const result = this.runResolved(parsed, query, limit, options, cut);
    const filter = options?.filter;
    if (!filter) return result;
    // counting what a filter lets through calls it on every tool: several times the cost of the
    // query itself at 10k tools, and few callers read it, so it is counted on first read
    let visible: number | undefined;
    Object.defineProperty(result, "total", {
      enumerable: true,
      configurable: true,
      get: () => {
        visible ??= this.countPassing(filter);
        return visible;
      },
    });
    return result;
  }

  /** Runs a query after resolving its `server:` names (`server:slack` means `server-slack` and
   * `slack-mcp` too, `match-servers.ts`); names that mean no server go in `unknownServers`. */
  private runResolved(
    parsed: ParsedQuery,
    query: string,
    limit: number,
    options: SearchOptions | undefined,
    cut: boolean,
  ): SearchResult {
    if (parsed.servers.length === 0) return this.runQuery(parsed, query, limit, options, cut);
    const filter = options?.filter;
    // under a filter (policy, deferral) a server with no visible tool is no server at all
    const visible = filter ? this.summary(filter) : undefined;
    const known = visible ? visible.map((entry) => entry.server) : this.serverCounts.keys();
    const { servers, unknown } = matchServers(parsed.servers, known);
    if (servers.length === 0) {
      const summary = visible ?? this.summary(undefined);
      const miss: SearchResult = { query, kind: parsed.kind, total: this.size, hits: [] };
      if (parsed.kind === "keyword") miss.confidence = "none";
      return { ...miss, servers: summary, unknownServers: unknown };
    }
    const result = this.runQuery({ ...parsed, servers }, query, limit, options, cut);
    return unknown.length > 0 ? { ...result, unknownServers: unknown } : result;
  }

  private countPassing(filter: (tool: ToolDefinition) => boolean): number {
    let count = 0;
    for (const tool of this.tools) if (tool !== undefined && filter(tool)) count += 1;
    return count;
  }

  private runQuery(
    parsed: ParsedQuery,
    query: string,
    limit: number,
    options: SearchOptions | undefined,
    cut: boolean,
  ): SearchResult {
    const filter = options?.filter;
    const base = { query, kind: parsed.kind, total: this.size };
    if (parsed.kind === "select") {
      const hits: SearchHit[] = [];
      const missing: string[] = [];
      for (const name of parsed.select) {
        const tool = this.get(name);
        if (tool && (!filter || filter(tool))) hits.push({ name, score: 0, tool });
        else missing.push(name);
      }
      return { ...base, hits, missing };
    }
    const named = this.named;
    if (parsed.kind === "regex") {
      return { ...base, hits: regexHits(compileRegex(parsed.text), named, limit, filter) };
    }
    const passes = (tool: ToolDefinition) => this.passes(tool, parsed, options);
    if (parsed.kind === "browse") {
      if (parsed.excluded.length === 0) {
        return { ...base, kind: "browse", hits: browseHits(parsed, named, limit, passes) };
      }
      // `-word`s are looked up in the postings, as keyword mode does, instead of tokenising every
      // tool's text per call (2 s at 100k tools when the words exclude everything)
      this.scratch.begin(this.store.nextId + 1);
      const epoch = this.scratch.epoch;
      for (const word of parsed.excluded) this.markExcluded(word, epoch);
      const excluded = this.scratch.excluded;
      const kept = (tool: ToolDefinition) =>
        excluded[this.lookup.idOf(tool.name)] !== epoch && passes(tool);
      const hits = browseHits({ ...parsed, excluded: [] }, named, limit, kept);
      return { ...base, kind: "browse", hits };
    }
    const hits = this.keywordSearch(parsed, limit, cut, options);
    // a query of stop words only scores nothing in the index (an exact name may still be pinned)
    const fallback = hits.length < limit ? stopWordNameHits(parsed, named, limit, passes) : [];
    for (const hit of fallback) {
      if (hits.length >= limit) break;
      if (!hits.some((known) => known.name === hit.name)) hits.push(hit);
    }
    const confidence = hits[0]?.confidence?.level ?? "none";
    if (hits.length > 0) return { ...base, hits, confidence };
    const accept = filter ? (name: string) => filter(this.get(name) as ToolDefinition) : undefined;
    return {
      ...base,
      hits,
      confidence,
      suggestions: suggestNames(this.store, this.tools, this.nameMasks, parsed.text, 5, accept),
      servers: this.summary(filter),
    };
  }

  /** How many tools each server offers (those `filter` lets through), by server name. */
  private summary(filter: SearchOptions["filter"]): ServerSummary[] {
    if (filter) return summarizeServers(this.list().filter(filter));
    this.serverSummary ??= [...this.serverCounts]
      .map(([server, tools]) => ({ server, tools }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
    return this.serverSummary.map((entry) => ({ ...entry }));
  }

  /**
   * A keyword query in steps: plan the words, score and rank them into a top k
   * (`scoreKeywords`), raise name matches (`addNameBonuses`), choose the hits (`selectHits`:
   * diversification), attach companions (placed after their hit in a flat ranking), then build
   * each hit with its details, stopping at the tail cut.
   */
  private keywordSearch(
    parsed: ParsedQuery,
    limit: number,
    cut: boolean,
    options: SearchOptions | undefined,
  ): SearchHit[] {
    const words = rewriteValues(parsed.words);
    const plan = planQuery(words, parsed.required, this.store, this.config, this.neighbors);
    const diversify =
      this.config.diversity > 0 && plan.groups.length >= this.config.diversityMinWords;
    const pool = diversify ? Math.max(limit * 4, 40) : limit;
    const scored = this.scoreKeywords(parsed, plan, pool, options);
    const { score, excluded, epoch } = this.scratch;
    const allowed = (doc: number) =>
      excluded[doc] !== epoch && this.passes(this.tools[doc] as ToolDefinition, parsed, options);
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
    const explain = options?.explain === true;
    const chosen = this.selectHits(scored.top, raised, plan, limit, diversify, explain);
    const links = this.companionLinks(chosen.selected, allowed);
    let selected = chosen.selected;
    let placedAfter: Map<number, number> | undefined;
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
    const context = { plan, coverage, links, placedAfter, explain, bonuses, undiversified };
    for (const doc of selected) {
      const companion = placedAfter?.get(doc);
      const value =
        companion === undefined || this.scratch.scored(doc) ? (score[doc] as number) : 0;
      if (cut && value < first * this.config.tailCut) break;
      hits.push(buildHit(this.store, this.config, this.tools, doc, Math.max(0, value), context));
    }
    return hits;
  }

  /**
   * Scores `plan` into a top k of `pool` documents, dropping those excluded by `-word` or failing
   * a server or caller filter (`fails` marks them with a score below 0).
   */
  private scoreKeywords(
    parsed: ParsedQuery,
    plan: QueryPlan,
    pool: number,
    options: SearchOptions | undefined,
  ): { top: TopK; best: number; coverage: CoverageTable; fails?: (doc: number) => boolean } {
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
    return fails === undefined ? { top, best, coverage } : { top, best, coverage, fails };
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

  /** The companions of the first selected documents (`companions.ts`), by document. */
  private companionLinks(
    selected: readonly number[],
    allowed: (doc: number) => boolean,
  ): Map<number, CompanionLink[]> {
    const links = new Map<number, CompanionLink[]>();
    if (!this.config.finderCompanions && !this.config.mentionCompanions) return links;
    const steps = { finders: this.prerequisites, mentions: this.mentions };
    for (const doc of selected.slice(0, COMPANION_HITS)) {
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

  private passes(tool: ToolDefinition, parsed: ParsedQuery, options?: SearchOptions): boolean {
    if (parsed.servers.length > 0) {
      const server = (tool.server ?? "").toLowerCase();
      if (!parsed.servers.includes(server)) return false;
    }
    return options?.filter ? options.filter(tool) : true;
  }

  private markExcluded(word: string, epoch: number): void {
    for (const token of tokenize(word)) {
      for (const id of this.store.stemGroup(token)) {
        const list = this.store.postings[id];
        if (list === undefined) continue;
        const length = this.store.postingLength[id] ?? 0;
        for (let index = 0; index < length; index += 2) {
          this.scratch.excluded[list[index] as number] = epoch;
        }
      }
    }
  }

  private names(): string[] {
    this.sortedNames ??= this.liveNames().sort();
    return this.sortedNames;
  }
}
