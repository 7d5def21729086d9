/** The search index over a tool catalog: incremental BM25F, the query language, regex and browse modes. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { compileRegex } from "./fallback/regex-search.js";
import { browseHits, type NamedTools, regexHits, stopWordNameHits } from "./fallback/scan-modes.js";
import { summarizeServers } from "./fallback/suggest.js";
import { suggestNames } from "./fallback/suggest-names.js";
import { KeywordSearch } from "./keyword-search.js";
import { matchServers } from "./query/match-servers.js";
import { type ParsedQuery, parseQuery } from "./query/parse-query.js";
import type { SearchHit, SearchOptions, SearchResult, ServerSummary } from "./types.js";

export type { SearchIndexOptions } from "./store/indexed-tools.js";

/** Default number of hits. */
export const DEFAULT_LIMIT = 5;
/** Largest `limit` accepted by `search`. */
export const MAX_LIMIT = 25;
/** Largest `k` accepted by `rank`. */
export const MAX_RANK = 1000;

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
export class ToolSearchIndex extends KeywordSearch {
  /** The tools in name order, for the modes that scan them (`scan-modes.ts`). */
  private readonly named: NamedTools = {
    names: () => this.names(),
    get: (name) => this.get(name) as ToolDefinition,
  };

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

  private names(): string[] {
    this.sortedNames ??= this.liveNames().sort();
    return this.sortedNames;
  }
}
