/**
 * The options of `createToolSift`, apart from the facade so that the check of their names
 * (`option-keys.ts`) can read them without importing the facade that calls it.
 */

import type { BudgetHit, ResultSummarizer, SpillStore } from "./budget/index.js";
import type { Catalog, ToolDefinition } from "./catalog/index.js";
import type { CallDispatcher, DisclosureOptions, TurnSettings } from "./disclosure/index.js";
import type { LearningOptions } from "./learning/index.js";
import type { PolicyLayer, ProfileDefinition } from "./policy/index.js";
import type { Embedder, IndexStore, SavedVectors, SearchIndexOptions } from "./search/index.js";
import type { TokenCounter } from "./tokens/index.js";

/** Token budgets, all in tokens. */
export interface BudgetOptions {
  /** Most tokens the tools array (meta tools + loaded tools) may take; passed to disclosure as
   * `definitionBudget` (see there for the keep priority). Turns may override it. Default none. */
  toolDefinitions?: number;
  /** Most tokens one tool result may take when the tool sets no `maxResultTokens`; default 2,000. */
  perToolResult?: number;
  /** Most tokens the results of one session's agent loop may take (each session has its own
   * total; `sift.results.reset(session)` starts a new loop); default none. */
  totalResults?: number;
  /** Called when a result or the loop total hits its budget. */
  onBudgetHit?: (event: BudgetHit) => void;
  /** Summarises oversized results (async, yours); its output is budgeted too. */
  summarize?: ResultSummarizer;
  summarizeThreshold?: number;
  /** Keeps full results of every cut; adds the `tool_result_read` tool so the model can page. */
  spill?: SpillStore;
}

/** Options of `createToolSift`. */
export interface ToolSiftOptions {
  /** Initial tools; add more later with `sift.catalog.add`. */
  tools?: readonly ToolDefinition[];
  /**
   * A saved search index (`sift.exportIndex()`, or `toolsift index --out`): used instead of a
   * build when it was saved from the same tools and search settings; otherwise the index is
   * built and `onWarning` is told why. Or a store of saved indexes by content (`IndexStore`,
   * `read(tools)` and `write(tools, bytes)`): the index is then filled at its first use, from
   * the store's index of the tools the catalog holds then, or built and written there. A
   * gateway whose servers start after `createToolSift` thus builds once, or not at all.
   */
  index?: Uint8Array | IndexStore;
  /** Use an existing catalog instead of creating one (then `tools` is added to it). */
  catalog?: Catalog;
  /** Tools of different servers sharing a name: `qualify` (default) calls each `server/name`
   * with one warning naming them; `error` throws `duplicate_tool`. Ignored with `catalog`. */
  duplicates?: "qualify" | "error";
  /** Receives every warning meant for the host, each once: names qualified at load, a catalog
   * tool renamed because it takes a meta tool's name, an embedder that failed. Default
   * `console.warn`. */
  onWarning?: (message: string) => void;
  /**
   * Runs every call whose tool has no `handler`, e.g. by forwarding it to the tool's MCP server:
   * `({ tool, name, arguments, session, signal }) => client.callTool(...)`. Policy, argument
   * validation and repair, hooks, the time limit and result budgets apply as for handlers.
   */
  onCall?: CallDispatcher;
  /** Disclosure defaults; every turn may override the `TurnSettings` part. */
  disclosure?: TurnSettings &
    Pick<
      DisclosureOptions,
      | "store"
      | "metaToolNames"
      | "hooks"
      | "timeoutMs"
      | "searchLimit"
      | "searchResponseTokens"
      | "describeResponseTokens"
      | "sanitizeDescription"
      | "withholdWeak"
      | "uncheckedSchemas"
    >;
  /** The active profile and the ordered allow/deny layers (`rules` is an alias of `layers`). */
  policy?: {
    profile?: string;
    profiles?: readonly ProfileDefinition[];
    layers?: readonly PolicyLayer[];
    rules?: readonly PolicyLayer[];
  };
  budget?: BudgetOptions;
  /** Token counter for plans and budgets: `o200k` (default, exact), `estimate`, or your own. */
  tokens?: "o200k" | "estimate" | TokenCounter;
  search?: SearchOptionsOfToolSift;
  /**
   * Search that learns from use (off unless set; docs/ranking.md "Learning from use"): when a
   * session's `tool_search` returns a tool and the session then calls it, the query's words
   * join the tool's learned field. `{}` turns it on with the defaults; `initial` starts from
   * `sift.exportLearning()`'s snapshot.
   */
  learning?: LearningOptions;
}

/** Search settings: the index's ranking, and optionally semantic search (docs/semantic-search.md). */
export interface SearchOptionsOfToolSift
  extends Omit<SearchIndexOptions, "snapshot" | "onWarning"> {
  // a saved index is the top-level `index` option and warnings go to the top-level `onWarning`
  /** Turns on hybrid search: `tool_search` and `searchAsync` fuse embeddings into the ranking. */
  embedder?: Embedder;
  /** Share of a hit's score that comes from similarity, 0–1; default 0.1. */
  semanticWeight?: number;
  /** Milliseconds a search waits for the whole embedding pass (tools, then the query) before it
   * answers lexically while tool vectors fill in the background; default 10,000. */
  embedTimeoutMs?: number;
  /** Tool vectors from `sift.exportVectors()` of an earlier run. */
  vectors?: SavedVectors;
}
