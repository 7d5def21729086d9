/**
 * Hybrid search: the lexical ranking fused with the cosine similarity of embeddings. Embedding is
 * async and may fail, so it happens in `prepare`; `search` stays synchronous and falls back to the
 * lexical result whenever a vector it needs is not ready.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { errorText } from "../../internal/index.js";
import { parseQuery } from "../query/parse-query.js";
import { MAX_LIMIT } from "../tool-search-index.js";
import type { SearchOptions, SearchResult } from "../types.js";
import { type Embedder, normalizeVector } from "./embedder.js";
import { fuseHits } from "./fuse-hits.js";
import { Similarities } from "./similarities.js";
import {
  type SavedVectors,
  ToolVectorStore,
  toolEmbeddingText,
  type VectorMatrix,
} from "./tool-vectors.js";

/** Options of semantic search (`createToolSift({ search: { embedder } })`). */
export interface SemanticSearchOptions {
  embedder: Embedder;
  /** Share of the fused score that comes from similarity, 0–1; default 0.1 (see docs/ranking.md). */
  weight?: number;
  /**
   * Milliseconds a search waits for the embedding pass (all tool batches, then the query), and
   * the most one embed call may take; default 10,000. Past it the search is lexical while tool
   * vectors keep filling in the background.
   */
  timeoutMs?: number;
  /** Tool vectors saved by `exportVectors()`, so a restart does not embed the catalog again. */
  vectors?: SavedVectors;
  /** Texts per embed call when embedding tools; default 64. */
  batchSize?: number;
}

/** Where the semantic step reads the tools and learns of catalog changes. */
export interface ToolSource {
  list(): readonly ToolDefinition[];
  /** Changes whenever the tool set changes. */
  version(): number;
}

const QUERY_CACHE_LIMIT = 512;
// a tool batch runs in the background, so it may take longer than a search waits; a batch that
// takes longer than this is treated as hung (its request is aborted)
const TOOL_BATCH_MS = 60_000;

/** Lexical search as the facade runs it (policy filter applied). */
export type LexicalSearch = (query: string, options: SearchOptions) => SearchResult;

/** Fuses embeddings into a lexical ranking; see the module comment. */
export class SemanticSearch {
  private readonly embedder: Embedder;
  private readonly weight: number;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly store: ToolVectorStore;
  private readonly queries = new Map<string, Float32Array>();
  private matrix: VectorMatrix | undefined;
  private matrixVersion = -1;
  private pending: Promise<void> | undefined;
  private pendingVersion = -1;
  /** Catalog version whose tools all have vectors (searches are lexical until then). */
  private filledVersion = -1;
  private progress = { done: 0, total: 0 };
  /** The background pass already warned about, and the last failure warned about. */
  private announced: Promise<void> | undefined;
  private lastFailure: unknown;
  private failures = 0;
  private retryAt = 0;

  constructor(
    options: SemanticSearchOptions,
    private readonly source: ToolSource,
    private readonly warn: (message: string) => void,
  ) {
    this.embedder = options.embedder;
    this.weight = checkShare(options.weight ?? 0.1, "search.semanticWeight");
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.batchSize = Math.max(1, Math.floor(options.batchSize ?? 64));
    this.store = new ToolVectorStore(options.embedder.id ?? "embedder");
    if (options.vectors) this.store.restore(options.vectors);
  }

  /**
   * Embeds every tool not embedded yet and the given queries, waiting at most `timeoutMs` for the
   * whole pass. Never throws: past the limit the tools keep filling in the background (one
   * warning), and on failure it warns and waits longer after each failure before it tries again;
   * meanwhile it returns false and searches stay lexical.
   */
  async prepare(queries: readonly string[]): Promise<boolean> {
    if (Date.now() < this.retryAt) return false;
    try {
      const fill = this.embedTools();
      if (!(await settledWithin(fill, this.timeoutMs))) {
        this.announceBackgroundFill(fill);
        return false;
      }
      const missing = [...new Set(queries)].filter((query) => !this.queries.has(query));
      if (missing.length > 0) {
        const vectors = await this.embed(missing, "query");
        missing.forEach((query, index) => {
          this.rememberQuery(query, vectors[index] as Float32Array);
        });
      }
      this.failures = 0;
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  /**
   * An all-zero vector says the embedder found nothing in the text it knows (a word-vector table
   * meets no known word): that tool ranks by its keywords alone (a zero vector scores 0 against
   * every query), with one warning counting them. A pass of several tools where every vector is
   * zero is a broken embedder, and fails like one.
   */
  private checkBlank(blank: number, total: number): void {
    if (blank === 0) return;
    if (blank === total && total > 1) throw new Error(`all ${total} tool vectors are all zeros`);
    this.warn(
      `Semantic search: ${blank} of ${total} tools got an all-zero vector (the embedder knows none of their words); they rank by keywords only.`,
    );
  }

  /** Warns once per background pass, and reports its failure if nobody waits for it. */
  private announceBackgroundFill(fill: Promise<void>): void {
    if (this.announced === fill) return;
    this.announced = fill;
    fill.catch((error: unknown) => this.failed(error));
    const { done, total } = this.progress;
    this.warn(
      `Semantic search: tool vectors are still being embedded (${done} of ${total} after ${this.timeoutMs} ms); searches are lexical until they are ready, in the background.`,
    );
  }

  private failed(error: unknown): void {
    if (error === this.lastFailure) return;
    this.lastFailure = error;
    this.failures += 1;
    const waitMs = Math.min(1_000 * 2 ** (this.failures - 1), 60_000);
    this.retryAt = Date.now() + waitMs;
    this.warn(
      `Semantic search is off for now: the embedder failed (${errorText(error)}). Results are lexical-only; check the embedder, it is retried after ${waitMs / 1_000} s.`,
    );
  }

  /** The fused result when the query and tool vectors are ready, else the lexical one. */
  search(query: string, options: SearchOptions, lexical: LexicalSearch): SearchResult {
    const known = this.queries.get(query);
    // a query the embedder knows no word of says nothing semantic: the lexical result stands
    const vector = known && !isBlank(known) ? known : undefined;
    const parsed = vector ? parseQuery(query, options.mode ?? "auto") : undefined;
    if (!vector || parsed?.kind !== "keyword") return lexical(query, options);
    // a partly filled store would favour the tools embedded first
    if (this.filledVersion !== this.source.version()) return lexical(query, options);
    const pool = lexical(query, { ...options, limit: MAX_LIMIT, cut: false });
    const matrix = this.currentMatrix();
    // +required, -excluded and server: are hard constraints only the lexical engine checks, so
    // such a query re-ranks its lexical hits and adds nothing
    const constrained = parsed.required.length + parsed.excluded.length + parsed.servers.length > 0;
    const scores = new Similarities(vector, matrix, !constrained);
    const filter = options.filter;
    return fuseHits(pool, matrix, scores, options, this.weight, (tool) => !filter || filter(tool));
  }

  /** Tool vectors as plain JSON, for the `vectors` option of a later run. */
  exportVectors(): SavedVectors {
    return this.store.export();
  }

  /** How many tool and query vectors are held. */
  stats(): { toolVectors: number; queryVectors: number } {
    return { toolVectors: this.store.size, queryVectors: this.queries.size };
  }

  private currentMatrix(): VectorMatrix {
    const version = this.source.version();
    if (!this.matrix || this.matrixVersion !== version) {
      const tools = this.source.list();
      this.matrix = this.store.matrixFor(
        tools,
        tools.map((tool) => this.store.keyOf(tool)),
      );
      this.matrixVersion = version;
    }
    return this.matrix;
  }

  /** Embeds the tools whose text has no vector yet; concurrent calls share one run. */
  private embedTools(): Promise<void> {
    const version = this.source.version();
    if (this.pending && this.pendingVersion === version) return this.pending;
    const run = this.embedMissingTools().finally(() => {
      if (this.pending === run) this.pending = undefined;
    });
    this.pending = run;
    this.pendingVersion = version;
    return run;
  }

  private async embedMissingTools(): Promise<void> {
    const version = this.source.version();
    const tools = this.source.list();
    const keys = tools.map((tool) => this.store.keyOf(tool));
    this.store.keepOnly(new Set(keys));
    const todo: { key: string; text: string }[] = [];
    const queued = new Set<string>();
    tools.forEach((tool, index) => {
      const key = keys[index] as string;
      if (this.store.has(key) || queued.has(key)) return;
      queued.add(key);
      todo.push({ key, text: toolEmbeddingText(tool) });
    });
    this.progress = { done: 0, total: todo.length };
    let blank = 0;
    for (let start = 0; start < todo.length; start += this.batchSize) {
      const batch = todo.slice(start, start + this.batchSize);
      const vectors = await this.embed(
        batch.map((item) => item.text),
        "tool",
      );
      batch.forEach((item, index) => {
        const vector = vectors[index] as Float32Array;
        if (isBlank(vector)) blank += 1;
        if (!this.store.set(item.key, vector)) {
          throw new Error(
            `the vector for a tool has ${vectors[index]?.length} dimensions, unlike the others`,
          );
        }
      });
      this.progress.done += batch.length;
    }
    this.checkBlank(blank, todo.length);
    if (todo.length > 0) this.matrixVersion = -1;
    this.filledVersion = version;
  }

  /**
   * One embed call with its checks and time limit; the embedder's signal fires at the limit. A
   * query waits `timeoutMs`; a tool batch, which runs on in the background, up to a minute.
   */
  private async embed(texts: string[], kind: "query" | "tool"): Promise<Float32Array[]> {
    const limitMs = kind === "query" ? this.timeoutMs : Math.max(this.timeoutMs, TOOL_BATCH_MS);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer within ${limitMs} ms`);
        controller.abort(error);
        reject(error);
      }, limitMs);
    });
    try {
      const vectors = await Promise.race([
        this.embedder.embed(texts, { kind, signal: controller.signal }),
        timeout,
      ]);
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        throw new Error(
          `it returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${texts.length} texts`,
        );
      }
      return vectors.map((vector, index) =>
        checkedVector(vector, index, this.store.dimensionCount),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private rememberQuery(query: string, vector: Float32Array): void {
    if (this.queries.size >= QUERY_CACHE_LIMIT) {
      const oldest = this.queries.keys().next().value;
      if (oldest !== undefined) this.queries.delete(oldest);
    }
    this.queries.set(query, normalizeVector(vector));
  }
}

/** A copy of one returned vector; throws naming what is wrong with it (nothing is dropped silently). */
function checkedVector(vector: unknown, position: number, dimensions: number): Float32Array {
  if (!(vector instanceof Float32Array) && !Array.isArray(vector))
    throw new Error(`vector ${position} is not a Float32Array or an array of numbers`);
  const copy = Float32Array.from(vector as ArrayLike<number>);
  for (const value of copy) {
    if (!Number.isFinite(value)) throw new Error(`vector ${position} has NaN or infinite values`);
  }
  if (dimensions > 0 && copy.length !== dimensions)
    throw new Error(
      `vector ${position} has ${copy.length} dimensions, the tool vectors ${dimensions}`,
    );
  return copy;
}

/** True for a vector of zeros only (the embedder recognised nothing in its text). */
function isBlank(vector: Float32Array): boolean {
  for (const value of vector) if (value !== 0) return false;
  return true;
}

/** True when `work` settles within `ms` (rejects with its error), false when it is still running. */
function settledWithin(work: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(false), ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function checkShare(value: number, option: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new ToolsiftError(
      "invalid_option",
      `${option} must be a number from 0 to 1, got ${String(value)}. The default is 0.1.`,
    );
  }
  return value;
}
