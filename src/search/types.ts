/** Public types of the search engine: options, hits, results and explanations. */

import type { ToolDefinition } from "../catalog/index.js";

/** How a query string is read. `auto` detects `select:`, `/regex/` and plain keywords. */
export type SearchMode = "auto" | "keyword" | "regex";

export interface SearchOptions {
  /** Maximum hits; default 5, must be 1–25 (a RangeError-like ToolsiftError otherwise). */
  limit?: number;
  mode?: SearchMode;
  /** Attach a per-hit explanation of which terms and fields scored. */
  explain?: boolean;
  /** Drop weak tails relative to the best hit (default true). `rank` turns it off. */
  cut?: boolean;
  /** Only tools for which this returns true are considered (policy visibility, deferred set). */
  filter?: (tool: ToolDefinition) => boolean;
}

/** One field's contribution to a hit's score. */
export interface FieldContribution {
  term: string;
  field: string;
  score: number;
}

export interface SearchHit {
  name: string;
  score: number;
  tool: ToolDefinition;
  /** Present when `explain` was set. */
  explanation?: FieldContribution[];
  /** Present when semantic search ranked the hit: how far its similarity stands above the
   * candidates' mean (in standard deviations) and the part of `score` it gave. */
  semantic?: { zScore: number; score: number };
}

export interface ServerSummary {
  server: string;
  tools: number;
}

/** A `server:` name that means no server of the catalog, with the closest server names. */
export interface UnknownServer {
  server: string;
  closest: string[];
}

export interface SearchResult {
  query: string;
  kind: "keyword" | "select" | "regex" | "browse";
  hits: SearchHit[];
  /** Number of tools the query was run over (after `filter`; with a filter it is counted when
   * first read, so a search that never reads it does not pay a pass over every tool). */
  total: number;
  /** `select:` names that do not exist (or are filtered out). */
  missing?: string[];
  /** When nothing matched: the closest tool names by edit distance. */
  suggestions?: string[];
  /** When nothing matched: how many tools each server offers, to refine the next query. */
  servers?: ServerSummary[];
  /** `server:` names that mean no server (see the README's query forms), with the closest ones. */
  unknownServers?: UnknownServer[];
}
