// Owns: the BM25F index, the query language, regex mode, ranking, explanations.
// Must not import: disclosure, providers, mcp, cli.

export {
  type EvalQuery,
  type Evaluation,
  evaluate,
  evaluateRanking,
  type QueryEvaluation,
  type Ranker,
} from "./evaluate/evaluate.js";
export { type ParsedQuery, parseQuery } from "./query/parse-query.js";
export { scoreFromParts } from "./rank/hit-details.js";
export { DEFAULT_RANKING, type RankingConfig } from "./ranking-config.js";
export {
  MAX_REGEX_LENGTH,
  MAX_REGEX_PROGRAM,
  MAX_REGEX_REPEAT,
  MAX_REGEX_WORK,
} from "./regex/regex-search.js";
export { type Embedder, type EmbedKind, normalizeVector } from "./semantic/embedder.js";
export {
  type LexicalSearch,
  SemanticSearch,
  type SemanticSearchOptions,
  type ToolSource,
} from "./semantic/semantic-search.js";
export { type SavedVectors, toolEmbeddingText } from "./semantic/tool-vectors.js";
export { indexKey, rememberIndexKey } from "./store/index-key.js";
export type { LearnedEntry } from "./store/learned-field.js";
export { handOverSnapshot } from "./store/snapshot-format.js";
export { type IndexStore, syncSearchIndex } from "./sync-search-index.js";
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_RANK,
  type SearchIndexOptions,
  ToolSearchIndex,
} from "./tool-search-index.js";
export type * from "./types.js";

import { type SearchIndexOptions, ToolSearchIndex } from "./tool-search-index.js";

/** Creates an empty search index. */
export function createSearchIndex(options?: SearchIndexOptions): ToolSearchIndex {
  return new ToolSearchIndex(options);
}
