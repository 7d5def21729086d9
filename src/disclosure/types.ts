/** Public types of the disclosure layer: turn plans, injected dependencies, dispatch and hooks. */

import type { BudgetHit } from "../budget/index.js";
import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import type { SearchOptions, SearchResult } from "../search/index.js";
import type { RevealStore } from "./reveal-store.js";

/** `off` never defers, `on` defers whenever a tool is deferrable, `auto` defers above a threshold. */
export type DisclosureMode = "off" | "on" | "auto";

/** `reveal` promotes found tools into the loaded list; `bridge` keeps it fixed and runs targets
 * through the call meta tool. */
export type DisclosureStrategy = "reveal" | "bridge";

/** Runs a search over the catalog; the real engine lives in `src/search`. */
export type SearchFunction = (query: string, options: SearchOptions) => SearchResult;

/** Counts tokens in a text; the default is `estimateTokens` (characters / 4, rounded up). */
export type CountTokens = (text: string) => number;

/** Options of the server directory (on by default; `directory: false` turns it off). */
export interface DirectoryOptions {
  /** Token budget; default 1% of the context window, or 1,000 tokens without one. */
  maxTokens?: number;
  /** Describing words per server; default 4. */
  words?: number;
}

/** Fits a handler's result into its budget; the real layer lives in `src/budget`. */
export type BudgetResult = (
  result: ToolResult,
  tool: ToolDefinition,
  /** `deadline`: when the call's time limit ends (a `performance.now()` time), if it has one;
   * `session`: the session whose call produced the result (budgets are kept per session);
   * `onBudgetHit`: the call's own listener for a cut (`ExecuteInput.onBudgetHit`). */
  context?: {
    deadline?: number;
    session?: string;
    onBudgetHit?: (hit: BudgetHit) => void;
    /** Told once with what the budget did to the result (a tracer's budget phase). */
    onApplied?: (applied: BudgetFacts) => void;
  },
) => ToolResult | Promise<ToolResult>;

/** What the result budget did to one result, in tokens by the budget's counter. */
export interface BudgetFacts {
  tokensBefore: number;
  /** Tokens sent: the cut (or summarised) result plus its notes; `tokensBefore` when it fit. */
  tokensAfter: number;
  /** The limit applied (the tool's, or what is left of the session's total). */
  limit: number;
  truncated: boolean;
  summarized: boolean;
  /** The full result was stored for paging (`tool_result_read`). */
  spilled: boolean;
}

/** A phase of one call a host may time (`ExecuteInput.onPhase`): `search` is a search meta
 * tool's lookup, with the embedding of its queries; `budget` is the result budget. */
export type CallPhase = "search" | "budget";

/** What a timed phase found, told when it ends: counts only, never queries or result text. The
 * budget's figures are absent when a host's own `budgetResult` reports none. */
export type CallPhaseFacts =
  | { phase: "search"; queries: number; results: number; revealed: number }
  | ({ phase: "budget" } & Partial<BudgetFacts>);

/** The catalog as disclosure needs it: a list, and optionally a content fingerprint for caching. */
export interface DisclosureCatalog {
  list(): readonly ToolDefinition[];
  /** A stable key that changes whenever any tool changes; used as part of the plan cache key. */
  fingerprint?(): string;
}

/** When `auto` mode activates; any threshold that is passed activates it. */
export interface AutoThreshold {
  /** Activate when deferrable definitions take at least this many tokens, whatever the window
   * (default 20,000: 10% of a 200k window, so a 1M window does not carry 100k tokens of schemas
   * before deferring). `Infinity` turns the ceiling off. */
  maxTokens?: number;
  /** Activate when the number of visible tools is at least this (default 15 when no context
   * window is known and `contextShare` is not set). */
  toolCount?: number;
  /** Activate when deferrable definitions take at least this share (0–1) of the context window
   * (default 0.10 when a context window is known and `toolCount` is not set). */
  contextShare?: number;
}

/** Options of the directory of deferred tools embedded in the search tool's description. */
export interface ListingOptions {
  /** Token budget of the listing; default min(4,000, 5% of the context window), or 4,000. */
  maxTokens?: number;
  /** Characters kept of each tool's first sentence; default 60. */
  summaryChars?: number;
}

/** Names of the meta tools; change them when a catalog tool already uses one. */
export interface MetaToolNames {
  search: string;
  describe: string;
  call: string;
}

/** Settings that a single turn may override. */
/** A per-turn visibility (`TurnSettings.visibility`). */
export interface TurnVisibility {
  key: string;
  isVisible: (tool: ToolDefinition) => boolean;
}

export interface TurnSettings {
  mode?: DisclosureMode;
  strategy?: DisclosureStrategy;
  auto?: AutoThreshold;
  /** Embed a directory of deferred tools in the search tool's description (default false). */
  listing?: boolean | ListingOptions;
  /**
   * The server directory (default on): one line per server whose tools are deferred (name, tool
   * count, a few words derived from its tools), at the end of the search tool's description, or
   * of the system note under native search. Budgeted at 1% of the context window (1,000 tokens
   * without one), degrading to names and counts; `false` turns it off.
   */
  directory?: boolean | DirectoryOptions;
  /** In mode `on`, offer the meta tools even while nothing is deferrable (default false): a
   * gateway whose servers are all still starting keeps its search tool, which says so. */
  keepMetaTools?: boolean;
  /** Tools kept loaded by exact name or picomatch glob, on top of `defer: "never"`. A turn's list
   * adds to the one given at creation (it never replaces it). */
  neverDefer?: readonly string[];
  /** Context window of the model, in tokens; used by the share threshold and the listing budget. */
  contextWindow?: number;
  /** The provider searches deferred tools itself (`defer_loading`): no meta tools are emitted and
   * `deferred` carries the full definitions to send with `defer_loading: true`. */
  nativeSearch?: boolean;
  /**
   * Token budget of the whole tools array (meta tools + loaded tools), by the plan's counter; a
   * positive integer. In `auto`, exceeding it with everything loaded activates disclosure. Keep
   * priority: pinned tools (`defer: "never"`, `neverDefer`) are never moved; other core tools
   * stay loaded while they fit, in `fitToBudget` order (smaller first, then name), and the rest
   * become deferrable like MCP tools; revealed tools are promoted newest-first while they fit.
   * Mode `off` never defers: the budget is then only reported in `plan.budget`, not enforced.
   */
  definitionBudget?: number;
  /**
   * Most tool definitions the request may carry (meta tools + loaded tools): a provider's limit
   * (OpenAI Chat 128), set by provider turns from its capabilities. Above it disclosure activates
   * even in `auto`, unpinned core tools move to the deferrable side (smaller first stay) and
   * reveals are promoted newest-first while slots remain. Pinned tools never move: when they
   * alone pass the limit, or mode is `off` with more tools than it, `prepare` throws
   * `too_many_tools` with the counts and the fix.
   */
  maxTools?: number;
}

/** Input of `prepare`. */
export interface PrepareInput extends TurnSettings {
  session: string;
  /** Narrows visibility for this turn (a gateway session's user profile): a tool it refuses is
   * hidden exactly like a policy-hidden one (never planned, searched, described, revealed or
   * called). `key` stands for it in the plan cache: equal keys must give equal answers. */
  visibility?: TurnVisibility;
}

/** How a deferred tool reaches the model this turn. */
export type DeferredShown =
  | "listed" // `name: first sentence` in the listing
  | "named" // name only in the listing
  | "server" // counted in a one-line server summary
  | "search" // only via the search tool
  | "native"; // sent with defer_loading; the provider searches it

/** A deferred tool as the plan shows it; `tool` keeps the full definition for native search. */
export interface DeferredToolView {
  name: string;
  server?: string;
  /** First sentence of the description, control characters stripped, capped in length. */
  summary: string;
  /** Compact signature, e.g. `create_issue(owner*: string, state?: "open"|"closed")`. */
  signature: string;
  shown: DeferredShown;
  tool: ToolDefinition;
}

/** Token and count figures of a plan (tokens by the configured counter). */
export interface PlanStats {
  visible: number;
  core: number;
  deferrable: number;
  loaded: number;
  deferred: number;
  revealed: number;
  /** Tokens of every visible definition sent in full. */
  allTokens: number;
  /** Tokens of the deferrable definitions (what the share threshold compares). */
  deferrableTokens: number;
  loadedTokens: number;
  metaTokens: number;
  listingTokens: number;
  /** Tokens of the server directory (part of `metaTokens`, or of the system note when native). */
  directoryTokens: number;
  listingTier: "none" | "summaries" | "names" | "servers";
}

/** How a plan sits against its definitions budget (present only when a budget is set). */
export interface DefinitionBudgetReport {
  /** The budget, in tokens. */
  limit: number;
  /** Tokens of meta tools + loaded tools. */
  used: number;
  /** Tools the budget moved out of `loaded` (unpinned core tools, revealed tools that did not
   * fit), sorted by name; they stay searchable and callable. */
  dropped: string[];
  /** `used > limit`: pinned and meta tools alone exceed the budget, or mode is `off`. */
  overBudget: boolean;
}

/** What to send this turn, provider-neutral. Send `metaTools` first, then `loaded`: revealed
 * tools are appended at the end of `loaded`, so the earlier prefix stays byte-identical. */
export interface TurnPlan {
  loaded: readonly ToolDefinition[];
  deferred: readonly DeferredToolView[];
  metaTools: readonly ToolDefinition[];
  /** A short system-prompt note; empty when disclosure is not active. */
  system: string;
  active: boolean;
  reason: string;
  strategy: DisclosureStrategy;
  nativeSearch: boolean;
  stats: PlanStats;
  budget?: DefinitionBudgetReport;
  /** The text appended to the search tool's description: the server directory and, when on, the
   * listing of deferred tools. Formatters for providers that cap description length move it to
   * the system note. */
  listing?: string;
}

/** How a call reached its tool. */
export type CallRoute = "direct" | "bridge" | "meta";

/** What a before-hook sees: always the real tool name, never the bridge. */
export interface BeforeCallEvent {
  session: string;
  name: string;
  tool: ToolDefinition;
  arguments: { [key: string]: unknown };
  route: CallRoute;
}

/** A before-hook's answer: replace the arguments, or deny the call with a reason. */
export interface BeforeCallDecision {
  arguments?: { [key: string]: unknown };
  deny?: string;
}

/** What an after-hook sees. */
export interface AfterCallEvent extends BeforeCallEvent {
  result: ToolResult;
  durationMs: number;
}

export type BeforeCallHook = (
  event: BeforeCallEvent,
) => BeforeCallDecision | undefined | Promise<BeforeCallDecision | undefined>;

/** A call handed to the host's dispatcher (`onCall`): the real tool, never the bridge. */
export interface DispatchedCall {
  /** The real tool definition (its `server` says where to route the call). */
  tool: ToolDefinition;
  name: string;
  /**
   * The name the tool's server knows it by (`create_issue` for the qualified
   * `github/create_issue`): `client.callTool({ name: upstreamName, arguments })`.
   */
  upstreamName: string;
  /** Arguments after validation, repairs and before-hooks. */
  arguments: { [key: string]: unknown };
  session: string;
  /** Aborted on the call's time limit or when the caller cancels; pass it on to your client. */
  signal: AbortSignal;
  route: CallRoute;
}

/** Runs every call whose tool has no `handler` (e.g. forwards it to an MCP client); returns an
 * MCP-style result or any JSON value, like a handler. */
export type CallDispatcher = (call: DispatchedCall) => unknown | Promise<unknown>;

export type AfterCallHook = (
  event: AfterCallEvent,
) => ToolResult | undefined | Promise<ToolResult | undefined>;

/** Options of `createDisclosure`. */
export interface DisclosureOptions extends TurnSettings {
  catalog: DisclosureCatalog;
  search: SearchFunction;
  /** Policy visibility; hidden tools are never planned, searched, described, revealed or called. */
  isVisible?: (tool: ToolDefinition) => boolean;
  /** Changes whenever `isVisible` may answer differently; without it plans are not cached while
   * `isVisible` is set. */
  visibilityVersion?: () => string | number;
  /** Changes whenever the catalog changes; defaults to `catalog.fingerprint()`. */
  catalogVersion?: () => string | number;
  countTokens?: CountTokens;
  budgetResult?: BudgetResult;
  /** Called with the queries a search meta call runs (as read: trimmed, capped, at most
   * `MAX_QUERIES`) before it searches, so `search` can find their vectors (hybrid search). */
  embedQueries?: (queries: readonly string[]) => Promise<unknown>;
  /** Called once per query a search meta call ran, with the tools that query returned (what
   * the search step itself found, so an observer such as usage learning never searches again). */
  onSearched?: (event: SearchedEvent) => void;
  store?: RevealStore;
  metaToolNames?: Partial<MetaToolNames>;
  hooks?: { before?: readonly BeforeCallHook[]; after?: readonly AfterCallHook[] };
  /** Receives warnings meant for the host (a catalog tool renamed because it takes a meta tool's
   * name), each once; default `console.warn`. */
  onWarning?: (message: string) => void;
  /** Runs every call whose tool has no `handler`: policy, argument checks, hooks, the time limit
   * and result budgets apply exactly as for handlers. Without it such calls fail `no_handler`. */
  onCall?: CallDispatcher;
  /** Handler time limit in milliseconds; default 60,000; `Infinity` for none. */
  timeoutMs?: number;
  /** Calls to a tool whose input schema cannot be compiled (a remote `$ref`, an invalid
   * `pattern`, `maximum: "5"`): `refuse` them with `schema_unusable` (default; validation never
   * silently turns off) or `allow` them unchecked. */
  uncheckedSchemas?: "refuse" | "allow";
  /** Search hits per query when the model gives no limit (default 5) and the most it may ask
   * for (default 10); whole numbers from 1 to 25 (the engine's `MAX_LIMIT`). */
  searchLimit?: { default?: number; max?: number };
  /** Token budget of one search response (default 600; at least 100). */
  searchResponseTokens?: number;
  /**
   * Whether the search meta tool withholds a `weak` first hit, not only a `none` one (the model
   * gets the names and can ask with `include_weak: true`). `createToolSift` sets it while a
   * profile other than `full` is active: a narrow profile's closest tools are rarely the answer.
   * A function is read at each search.
   */
  withholdWeak?: boolean | (() => boolean);
  /** Token budget of one describe response (default 4,000; at least 100). Schemas are kept
   * whole; descriptions are cut first, then whole tools are left out, and the answer says so. */
  describeResponseTokens?: number;
  /**
   * Rewrites each tool description before any of it reaches the model (loaded definitions,
   * listings, search results, describe). Descriptions are third-party text: use this to strip
   * or flag instructions aimed at the model. Called once per definition object; must not throw.
   */
  sanitizeDescription?: (text: string, tool: ToolDefinition) => string;
}

/** One query of a search meta call and what it returned (`DisclosureOptions.onSearched`). */
export interface SearchedEvent {
  session: string;
  query: string;
  /** Catalog names of the tools the query returned, in rank order: the hits of the search
   * step (withheld weak ones too: the model saw their names) and the already loaded matches. */
  tools: readonly string[];
}

/** Input of `execute`. */
export interface ExecuteInput {
  session: string;
  name: string;
  /** The visibility of the turn the call belongs to (`PrepareInput.visibility`). */
  visibility?: TurnVisibility;
  arguments?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Handed to the handler unchanged as `context.host` (see `ToolCallContext`). */
  host?: unknown;
  /** Told when the result budget cuts this call's result, before the budget's own `onBudgetHit`
   * (a gateway notes it on the call that caused it). */
  onBudgetHit?: (hit: BudgetHit) => void;
  /** Told as each timed phase of this call starts (a tracer's child spans); the function it
   * returns is called once when the phase ends, with what it found, or with nothing when the
   * phase failed. Absent (the default), nothing is timed. */
  onPhase?: (phase: CallPhase) => (facts?: CallPhaseFacts) => void;
}

/** A tool result plus what happened on the way. */
export interface ExecuteOutcome extends ToolResult {
  /** The real tool that ran (or would have run); the bridge is never named here. */
  tool: string;
  route: CallRoute;
  /** Whether the handler ran. */
  ran: boolean;
  /** Tools revealed to the session by this call. */
  revealed: string[];
  /** Argument repairs applied, in words. */
  repairs: string[];
  durationMs: number;
  /** snake_case reason when the tool did not run or failed. */
  errorCode?: string;
}
