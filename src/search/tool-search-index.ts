/**
 * The search index over a tool catalog: incremental BM25F, the query language, regex and browse
 * modes. It composes its parts, each passed the ones it reads: the indexed tools (store/), the
 * keyword engine (query planning and scoring, keyword-search.ts), regex mode (regex/) and the
 * fallbacks for queries that score nothing (fallback/).
 */

import { combineHashes, hashString, type ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { defaultWarn } from "../internal/index.js";
import { browseHits, stopWordNameHits } from "./fallback/scan-modes.js";
import { suggestIndexedNames } from "./fallback/suggest-names.js";
import { summarizeServers } from "./fallback/summarize-servers.js";
import { type HitShape, KeywordSearch } from "./keyword-search.js";
import { matchServers } from "./query/match-servers.js";
import { type ParsedQuery, parseQuery } from "./query/parse-query.js";
import { FACTS_SECTION } from "./rank/companion-facts.js";
import { readNameWords } from "./rank/name-fit.js";
import { readUnaskedDestructive } from "./rank/unasked-destructive.js";
import { type RankingConfig, resolveRanking } from "./ranking-config.js";
import { regexHits } from "./regex/regex-hits.js";
import { compileRegex } from "./regex/regex-search.js";
import { checkTools } from "./store/check-tools.js";
import { indexKey } from "./store/index-key.js";
import { IndexedTools, readTools } from "./store/indexed-tools.js";
import type { LearnedEntry } from "./store/learned-field.js";
import type { NamedTools } from "./store/named-tools.js";
import { SNAPSHOT_FORMAT, SnapshotReader, SnapshotWriter } from "./store/snapshot-format.js";
import type { SearchHit, SearchOptions, SearchResult, ServerSummary } from "./types.js";

/** Options of a search index. */
export interface SearchIndexOptions {
  /** Overrides of the ranking constants (for tuning; the defaults are measured). */
  ranking?: Partial<RankingConfig>;
  /**
   * A saved index (`exportSnapshot`, `sift.exportIndex()`): the first `addAll` into the empty
   * index reads it instead of building when it was saved from the same tools, in the same order,
   * with the same ranking settings; otherwise it builds and warns why.
   */
  snapshot?: Uint8Array;
  /** Receives the warning when `snapshot` cannot be used; default `console.warn`. */
  onWarning?: (message: string) => void;
}

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
export class ToolSearchIndex {
  private readonly indexed: IndexedTools;
  private readonly keyword: KeywordSearch;
  /** The tools in name order, for the modes that scan them (regex, browse, stop words). */
  private readonly named: NamedTools;
  /** What a snapshot's fingerprint covers besides the tools: format and ranking settings. */
  private readonly settingsKey: string;
  private snapshot: Uint8Array | undefined;
  private readonly warn: (message: string) => void;
  /** Set by `fillLazily`: the fill that runs before the first call that reads or changes tools. */
  private pendingFill: (() => void) | undefined;

  constructor(options?: SearchIndexOptions) {
    const config = resolveRanking(options?.ranking);
    this.settingsKey = `${SNAPSHOT_FORMAT}|${JSON.stringify(config)}`;
    this.snapshot = options?.snapshot;
    this.warn = options?.onWarning ?? defaultWarn;
    const fields = { weights: config.fieldWeights, b: config.fieldB, k1: config.k1 };
    this.indexed = new IndexedTools({ fields, compounds: config.compounds });
    this.keyword = new KeywordSearch(this.indexed, config);
    this.named = {
      names: () => this.indexed.names(),
      get: (name) => this.indexed.get(name) as ToolDefinition,
    };
  }

  /**
   * Defers filling the empty index to just before the first call that reads or changes its tools
   * (`search`, `rank`, `size`, `add`…): `fill` runs once, then. A gateway whose servers are still
   * starting builds once, from a saved index when one matches, instead of tool by tool.
   */
  fillLazily(fill: () => void): void {
    this.pendingFill = fill;
  }

  private settle(): void {
    const fill = this.pendingFill;
    if (fill === undefined) return;
    this.pendingFill = undefined;
    fill();
  }

  /** Number of tools in the index. */
  get size(): number {
    this.settle();
    return this.indexed.size;
  }

  /** Tests whether a tool with this exact name is indexed. */
  has(name: string): boolean {
    this.settle();
    return this.indexed.has(name);
  }

  /** The indexed tool with this exact name. */
  get(name: string): ToolDefinition | undefined {
    this.settle();
    return this.indexed.get(name);
  }

  /** Adds a tool; a tool with the same name is replaced. */
  add(tool: ToolDefinition): void {
    this.settle();
    this.indexed.add(tool);
  }

  /** Adds many tools as `add` would one by one, writing postings in bulk; checks them all first. */
  addAll(tools: readonly ToolDefinition[]): void {
    this.fill(tools, undefined);
  }

  /**
   * `addAll` into the empty index from `snapshot` (or the constructor's) when it was saved from
   * these tools; true when it was used, false after a build (with a warning naming why).
   */
  fill(tools: readonly ToolDefinition[], snapshot: Uint8Array | undefined): boolean {
    this.settle();
    const saved = snapshot ?? this.snapshot;
    this.snapshot = undefined;
    if (saved !== undefined && this.size === 0 && this.restore(saved, tools)) return true;
    this.indexed.addAll(tools);
    return false;
  }

  /**
   * The index as bytes, to pass back as `snapshot` in another process: its typed arrays as they
   * are, behind a header with the format version, a checksum and the fingerprint of the tools
   * (in index order) and ranking settings. The fingerprint covers what the index reads from each
   * tool (`indexKey`), not the whole tool; the tools themselves are not included.
   */
  exportSnapshot(): Uint8Array {
    this.settle();
    const writer = new SnapshotWriter();
    this.indexed.save(writer);
    const ids = this.indexed.liveIds();
    this.keyword.facts.save(writer, ids);
    this.keyword.destructive.save(writer, ids);
    this.keyword.nameWords.save(writer, ids);
    return writer.finish(this.fingerprint(this.indexed.liveTools()));
  }

  private fingerprint(tools: readonly ToolDefinition[]): string {
    return hashString(`${this.settingsKey}|${combineHashes(tools.map(indexKey))}`);
  }

  /** Fills the empty index from a snapshot of these tools; false (after a warning) when it cannot. */
  private restore(snapshot: Uint8Array, tools: readonly ToolDefinition[]): boolean {
    checkTools(tools);
    let saved: ReturnType<typeof readTools>;
    let destructive: Int32Array;
    let nameWords: Int32Array;
    let reader: SnapshotReader;
    try {
      reader = new SnapshotReader(snapshot);
      if (reader.fingerprint !== this.fingerprint(tools)) {
        throw new Error(
          "it was saved from other tools, another tool order or other ranking settings",
        );
      }
      saved = readTools(reader, tools.length);
      destructive = readUnaskedDestructive(reader, saved.store);
      nameWords = readNameWords(reader, saved.store);
    } catch (error) {
      // damaged bytes of any kind mean a build, never a failure
      const problem = error instanceof Error ? error.message : String(error);
      this.warn(
        `Saved search index not used: ${problem}. The index was built from the tools instead; save a new snapshot with exportIndex() (or \`toolsift index\`).`,
      );
      return false;
    }
    this.indexed.restore(saved, tools);
    this.keyword.destructive.restore(destructive);
    this.keyword.nameWords.restore(nameWords, saved.store.counts.nextId);
    // read on first use: most restores answer a few searches and need the facts of a few tools
    if (reader.has(FACTS_SECTION)) {
      this.keyword.facts.restore(() => reader.json(FACTS_SECTION), saved.ids);
    }
    return true;
  }

  /** Removes a tool by name; returns false when it was not indexed. */
  remove(name: string): boolean {
    this.settle();
    return this.indexed.remove(name);
  }

  /** Replaces (or adds) the tool with the same name. */
  replace(tool: ToolDefinition): void {
    this.settle();
    this.indexed.add(tool);
  }

  /**
   * Sets the learned field: by tool name, stemmed words with a weight in (0, 1] each, usually
   * `UsageEvidence.learnedWords()` (src/learning/); replaces what was set before, an empty map
   * turns it off. Learned words are scored as their own bounded step, never shown to the model.
   */
  setLearned(words: ReadonlyMap<string, readonly LearnedEntry[]>): void {
    this.keyword.setLearned(words);
  }

  /** The learned words of a tool (empty when it has none). */
  learnedWords(name: string): readonly LearnedEntry[] {
    return this.keyword.learnedWords(name);
  }

  /** Every indexed tool, in name order. */
  list(): ToolDefinition[] {
    this.settle();
    return this.indexed.names().map((name) => this.get(name) as ToolDefinition);
  }

  /**
   * Searches the index. Hits are ordered by score (desc) then name; default limit 5, at most 25.
   * @example index.search("create a github issue", { limit: 3, explain: true })
   */
  search(query: string, options?: SearchOptions): SearchResult {
    this.settle();
    const limit = checkLimit(options?.limit, DEFAULT_LIMIT, MAX_LIMIT, "limit");
    const parsed = parseQuery(query, options?.mode ?? "auto");
    const result = this.run(parsed, query, limit, options, (options?.cut ?? true) ? "cut" : "flat");
    if (parsed.cut) result.truncated = parsed.cut;
    return result;
  }

  /** The names of the top `k` tools for a query: same engine as `search`, without the tail cut. */
  rank(query: string, k: number, options?: Omit<SearchOptions, "limit" | "cut">): string[] {
    this.settle();
    const count = checkLimit(k, 10, MAX_RANK, "k");
    const parsed = parseQuery(query, options?.mode ?? "auto");
    return this.run(parsed, query, count, options, "names").hits.map((hit) => hit.name);
  }

  private run(
    parsed: ParsedQuery,
    query: string,
    limit: number,
    options: SearchOptions | undefined,
    shape: HitShape,
  ): SearchResult {
    const result = this.runResolved(parsed, query, limit, options, shape);
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
    shape: HitShape,
  ): SearchResult {
    if (parsed.servers.length === 0) return this.runQuery(parsed, query, limit, options, shape);
    const filter = options?.filter;
    // under a filter (policy, deferral) a server with no visible tool is no server at all
    const visible = filter ? this.summary(filter) : undefined;
    const known = visible ? visible.map((entry) => entry.server) : this.indexed.serverCounts.keys();
    const { servers, unknown } = matchServers(parsed.servers, known);
    if (servers.length === 0) {
      const summary = visible ?? this.summary(undefined);
      const miss: SearchResult = { query, kind: parsed.kind, total: this.size, hits: [] };
      if (parsed.kind === "keyword") miss.confidence = "none";
      return { ...miss, servers: summary, unknownServers: unknown };
    }
    const result = this.runQuery({ ...parsed, servers }, query, limit, options, shape);
    return unknown.length > 0 ? { ...result, unknownServers: unknown } : result;
  }

  private countPassing(filter: (tool: ToolDefinition) => boolean): number {
    let count = 0;
    for (const tool of this.indexed.tools) if (tool !== undefined && filter(tool)) count += 1;
    return count;
  }

  private runQuery(
    parsed: ParsedQuery,
    query: string,
    limit: number,
    options: SearchOptions | undefined,
    shape: HitShape,
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
    const keyword = this.keyword;
    const passes = (tool: ToolDefinition) => keyword.passes(tool, parsed, options);
    if (parsed.kind === "browse") {
      if (parsed.excluded.length === 0) {
        return { ...base, kind: "browse", hits: browseHits(parsed, named, limit, passes) };
      }
      // `-word`s are looked up in the postings, as keyword mode does, instead of tokenising every
      // tool's text per call (2 s at 100k tools when the words exclude everything)
      const { scratch } = keyword;
      scratch.begin(this.indexed.store.nextId + 1);
      const epoch = scratch.epoch;
      for (const word of parsed.excluded) keyword.markExcluded(word, epoch);
      const excluded = scratch.excluded;
      const lookup = this.indexed.lookup;
      const kept = (tool: ToolDefinition) =>
        excluded[lookup.idOf(tool.name)] !== epoch && passes(tool);
      const hits = browseHits({ ...parsed, excluded: [] }, named, limit, kept);
      return { ...base, kind: "browse", hits };
    }
    const hits = keyword.search(parsed, limit, shape, options);
    // a query of stop words only scores nothing in the index (an exact name may still be pinned)
    const fallback = hits.length < limit ? stopWordNameHits(parsed, named, limit, passes) : [];
    for (const hit of fallback) {
      if (hits.length >= limit) break;
      if (!hits.some((known) => known.name === hit.name)) hits.push(hit);
    }
    const confidence = hits[0]?.confidence?.level ?? "none";
    // a ranking of names reads no "did you mean" or server summary: a miss is just empty
    if (hits.length > 0 || shape === "names") return { ...base, hits, confidence };
    const accept = filter ? (name: string) => filter(this.get(name) as ToolDefinition) : undefined;
    return {
      ...base,
      hits,
      confidence,
      suggestions: this.suggest(parsed.text, accept),
      servers: this.summary(filter),
    };
  }

  /** Up to 5 names nearest a query that found nothing ("did you mean"). */
  private suggest(text: string, accept: ((name: string) => boolean) | undefined): string[] {
    const { store, tools, nameMasks } = this.indexed;
    return suggestIndexedNames(store, tools, nameMasks, text, 5, accept);
  }

  /** How many tools each server offers (those `filter` lets through), by server name. */
  private summary(filter: SearchOptions["filter"]): ServerSummary[] {
    if (filter) return summarizeServers(this.list().filter(filter));
    return this.indexed.servers();
  }
}
