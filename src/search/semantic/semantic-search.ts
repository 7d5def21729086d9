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
  /** Milliseconds one embed call may take before search goes on lexical-only; default 10,000. */
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
   * Embeds every tool not embedded yet and the given queries. Never throws: on failure or
   * timeout it warns and returns false, and searches stay lexical until a later call succeeds.
   */
  async prepare(queries: readonly string[]): Promise<boolean> {
    try {
      await this.embedTools();
      const missing = [...new Set(queries)].filter((query) => !this.queries.has(query));
      if (missing.length > 0) {
        const vectors = await this.embed(missing, "query");
        missing.forEach((query, index) => {
          this.rememberQuery(query, vectors[index] as Float32Array);
        });
      }
      return true;
    } catch (error) {
      this.warn(
        `Semantic search is off for now: the embedder failed (${errorText(error)}). Results are lexical-only; check the embedder, it is retried on the next search.`,
      );
      return false;
    }
  }

  /** The fused result when the query and tool vectors are ready, else the lexical one. */
  search(query: string, options: SearchOptions, lexical: LexicalSearch): SearchResult {
    const vector = this.queries.get(query);
    const parsed = vector ? parseQuery(query, options.mode ?? "auto") : undefined;
    if (!vector || parsed?.kind !== "keyword") return lexical(query, options);
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
    for (let start = 0; start < todo.length; start += this.batchSize) {
      const batch = todo.slice(start, start + this.batchSize);
      const vectors = await this.embed(
        batch.map((item) => item.text),
        "tool",
      );
      batch.forEach((item, index) => {
        if (!this.store.set(item.key, vectors[index] as Float32Array)) {
          throw new Error(
            `the vector for a tool has ${vectors[index]?.length} dimensions, unlike the others`,
          );
        }
      });
    }
    if (todo.length > 0) this.matrixVersion = -1;
  }

  /** One embed call with its checks and time limit. */
  private async embed(texts: string[], kind: "query" | "tool"): Promise<Float32Array[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      const vectors = await Promise.race([this.embedder.embed(texts, { kind }), timeout]);
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        throw new Error(
          `it returned ${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${texts.length} texts`,
        );
      }
      return vectors.map((vector) => {
        if (!(vector instanceof Float32Array) && !Array.isArray(vector))
          throw new Error("a vector is not a Float32Array");
        return Float32Array.from(vector);
      });
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

function checkShare(value: number, option: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new ToolsiftError(
      "invalid_option",
      `${option} must be a number from 0 to 1, got ${String(value)}. The default is 0.1.`,
    );
  }
  return value;
}
