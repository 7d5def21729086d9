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

/** A tool a hit needs beside it: the finder of an id it requires, or a tool its text names. */
export interface Companion {
  name: string;
  /** For the model: "needs project_id", "named in its description". */
  reason: string;
  via: "finder" | "mentioned";
}

/**
 * How well a hit matches the query: the share of the query's informative words (by weight) it
 * contains, and whether one of them is in its name. `strong` asks for a name match and most of
 * the words (a short query: no rare word missing); `none` means almost nothing of the query
 * (see `confidence.ts`).
 */
export interface MatchConfidence {
  level: "strong" | "weak" | "none";
  /** Matched weight / total weight of the query's words (0–1). */
  coverage: number;
  /** True when a query word (or its inflection) is in the tool's name. */
  nameMatch: boolean;
  /** Query words (stems) the hit does not contain. */
  missing: string[];
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
  /** Present when `explain` was set: the factors whose product and sums give `score`. */
  scoreParts?: ScoreParts;
  /** Tools this hit needs beside it (keyword search only). */
  companions?: Companion[];
  /** Keyword search only: how well this hit matches the query. */
  confidence?: MatchConfidence;
  /** Set on a hit a flat ranking placed after `companionOf` as its companion. */
  companionOf?: string;
}

/**
 * A hit's score in parts: `((terms + nameBonus) × coverage × nameFit × unasked + phraseBonus + learned) ×
 * diversity`, or, for a pinned name, `pinned`; a companion placed by `rank` keeps its own score
 * (`companion`).
 */
export interface ScoreParts {
  /** Sum of the field contributions in `explanation` (BM25F of every matched term). */
  terms: number;
  /** Sum of the name-rarity bonuses of the query words found in the name. */
  nameBonus: number;
  /** The coverage multiplier `1 + coverage × matched share`. */
  coverage: number;
  /** Set for a short query: the name-fit multiplier, lower the more of the tool's name the query did
   * not ask for (`rank/name-fit.ts`). */
  nameFit?: number;
  /** Added when the query's words equal the name's words (best score × bonus). */
  phraseBonus: number;
  /** Aspect diversification multiplier (1 when it did not apply). */
  diversity: number;
  /** Set when the tool is marked destructive and the query did not ask for its act (a name word
   * found mostly in destructive tools' names): the factor its lexical score was scaled by. */
  unasked?: number;
  /** Set when the tool's learned words (usage evidence) matched: added like `phraseBonus`; the
   * words are in `explanation` with field `learned`. */
  learned?: number;
  /** Set when the tool was pinned by an exact name or suffix: its score is this value. */
  pinned?: number;
  /** Set when a flat ranking placed the tool after this hit as its companion. */
  companionOf?: string;
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
  /** Keyword search: the first hit's confidence level (`none` when nothing matched). */
  confidence?: MatchConfidence["level"];
  /** When nothing matched: the closest tool names by edit distance. */
  suggestions?: string[];
  /** When nothing matched: how many tools each server offers, to refine the next query. */
  servers?: ServerSummary[];
  /** `server:` names that mean no server (see the README's query forms), with the closest ones. */
  unknownServers?: UnknownServer[];
  /** Set when the query was longer than the 20,000 characters a search reads: how much of it was
   * read (from the start) and its whole length. */
  truncated?: { read: number; length: number };
}
