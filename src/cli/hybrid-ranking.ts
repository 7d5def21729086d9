/**
 * Hybrid search for the one-shot commands (`search`, `rank`, `eval`): the library's semantic step
 * over a CLI index, with the queries embedded in batches before they are ranked.
 */
import type { ToolDefinition } from "../catalog/index.js";
import {
  MAX_LIMIT,
  type SearchOptions,
  type SearchResult,
  SemanticSearch,
  type ToolSearchIndex,
} from "../search/index.js";
import type { OpenedEmbedder } from "./configured-embedder.js";

// a query vector cache holds 512; a batch well under it keeps each batch's vectors until ranked
const QUERY_BATCH = 64;

/** Ranks like the index, fused with similarity when an embedder is given. */
export interface HybridRanking {
  search(query: string, options: SearchOptions): Promise<SearchResult>;
  /** The top `k` names of each query (no tail cut), by query text. */
  rankAll(
    queries: readonly string[],
    k: number,
    onBatch?: (done: number) => void,
  ): Promise<Map<string, string[]>>;
}

/** The index alone, or the index fused with `opened`'s embedder. */
export function hybridRanking(
  index: ToolSearchIndex,
  tools: readonly ToolDefinition[],
  opened: OpenedEmbedder | undefined,
  warn: (message: string) => void,
): HybridRanking {
  const embedder = opened?.search.embedder;
  const semantic = embedder
    ? new SemanticSearch(
        {
          embedder,
          ...(opened.search.semanticWeight !== undefined
            ? { weight: opened.search.semanticWeight }
            : {}),
          ...(opened.search.embedTimeoutMs !== undefined
            ? { timeoutMs: opened.search.embedTimeoutMs }
            : {}),
        },
        // the catalog of a command never changes
        { list: () => tools, version: () => 0 },
        warn,
      )
    : undefined;
  const lexical = (query: string, options: SearchOptions) => index.search(query, options);
  const rankOne = (query: string, k: number): string[] => {
    if (!semantic) return index.rank(query, k);
    const fused = semantic
      .search(query, { limit: Math.min(k, MAX_LIMIT), cut: false }, lexical)
      .hits.map((hit) => hit.name);
    if (k <= fused.length) return fused.slice(0, k);
    // past the fused pool, the lexical order continues
    const seen = new Set(fused);
    return [...fused, ...index.rank(query, k).filter((name) => !seen.has(name))].slice(0, k);
  };
  return {
    async search(query, options) {
      if (!semantic) return index.search(query, options);
      await semantic.prepare([query]);
      return semantic.search(query, options, lexical);
    },
    async rankAll(queries, k, onBatch) {
      const ranked = new Map<string, string[]>();
      for (let start = 0; start < queries.length; start += QUERY_BATCH) {
        const batch = queries
          .slice(start, start + QUERY_BATCH)
          .filter((query) => query.trim() !== "");
        if (semantic) await semantic.prepare(batch);
        for (const query of batch) {
          try {
            if (!ranked.has(query)) ranked.set(query, rankOne(query, k));
          } catch {
            // the caller ranks it again and reports the engine's reason
          }
        }
        onBatch?.(Math.min(start + QUERY_BATCH, queries.length));
      }
      return ranked;
    },
  };
}
