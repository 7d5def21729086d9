/**
 * `createToolSift`: the facade that wires catalog, search, policy, budgets and disclosure into
 * one object with `prepare`, `execute` and `search`. Every part stays reachable for callers who
 * need more (`sift.catalog`, `sift.policy`, `sift.index`, `sift.disclosure`, `sift.results`).
 */

import {
  applyResultBudget,
  createSessionResultBudgets,
  type SessionResultBudgets,
  type SpillStore,
  spillReadToolDefinition,
} from "./budget/index.js";
import type { Catalog, ToolDefinition, ToolResult } from "./catalog/index.js";
import { createCatalog } from "./catalog/index.js";
import {
  createDisclosure,
  type Disclosure,
  type ExecuteInput,
  type ExecuteOutcome,
  type PrepareInput,
  type TurnPlan,
  type TurnSettings,
} from "./disclosure/index.js";
import { ToolsiftError } from "./errors.js";
import { checkOptionKeys } from "./option-keys.js";
import {
  createPolicy,
  DEFAULT_PROFILE,
  type Policy,
  type PolicyDecision,
  unmatchedSelectors,
} from "./policy/index.js";
import {
  createProviderTurns,
  type ProviderRespondInput,
  type ProviderResponseOutcome,
  type ProviderTurn,
  type ProviderTurnInput,
} from "./provider-turns.js";
import type { ProviderId } from "./providers/index.js";
import {
  createSearchIndex,
  type SavedVectors,
  type SearchOptions,
  type SearchResult,
  SemanticSearch,
  syncSearchIndex,
  type ToolSearchIndex,
} from "./search/index.js";
import { estimateCounter, o200kCounter, type TokenCounter } from "./tokens/index.js";
import type { ToolSiftOptions } from "./toolsift-options.js";

export type {
  BudgetOptions,
  SearchOptionsOfToolSift,
  ToolSiftOptions,
} from "./toolsift-options.js";

import { defaultWarn, errorText } from "./internal/index.js";
import { type LearningSnapshot, UsageLearning } from "./learning/index.js";

/** One toolsift instance. */
export interface ToolSift {
  readonly catalog: Catalog;
  readonly policy: Policy;
  readonly index: ToolSearchIndex;
  readonly disclosure: Disclosure;
  /** The loop-total result budgets, one per session; `reset(session)` when that session starts a
   * new agent loop (`reset()` starts one for every session). */
  readonly results: SessionResultBudgets;
  /** Forgets a session that ended: its reveals, its loop budget and its stored (spilled)
   * results. A gateway calls it when a client disconnects or its session expires. */
  endSession(session: string): void;
  readonly tokenCounter: TokenCounter;
  /**
   * Plans one turn. With a `provider`, returns the request fragment for it (native tool search
   * where the model supports it, client-side otherwise); without, the provider-neutral plan.
   */
  prepare<P extends ProviderId>(input: ProviderTurnInput<P>): ProviderTurn<P>;
  prepare(input: PrepareInput): TurnPlan;
  /**
   * Reads a model response for a prepared provider turn, runs its calls, formats the results;
   * `results` is empty when there is nothing to send back.
   */
  respond<P extends ProviderId>(
    input: ProviderRespondInput<P>,
  ): Promise<ProviderResponseOutcome<P>>;
  /** Executes one model tool call; never throws for model input (errors are `isError` results). */
  execute(input: ExecuteInput & TurnSettings): Promise<ExecuteOutcome>;
  /** Searches the tools the policy lets through, lexically (synchronous; see `searchAsync`). */
  search(query: string, options?: SearchOptions): SearchResult;
  /** Like `search`, fused with semantic similarity when `search.embedder` is set (the embedder
   * runs first); without an embedder, or when it fails, the lexical result. */
  searchAsync(query: string, options?: SearchOptions): Promise<SearchResult>;
  /** Tool vectors computed so far, to pass as `search.vectors` next time (undefined without an
   * embedder). */
  exportVectors(): SavedVectors | undefined;
  /** The usage evidence as JSON, to pass as `learning.initial` next time (undefined unless the
   * `learning` option is set). Holds stemmed query words, tool names and hashed session ids. */
  exportLearning(): LearningSnapshot | undefined;
  /** The learning in use (evidence, recorder), or undefined unless the `learning` option is set:
   * `learning.evidence.removeWord(tool, word)` and `.erase()`, then `learning.refresh(true)`. */
  readonly learning: UsageLearning | undefined;
  /** Which policy layer and rule decide whether a tool is visible. */
  explain(name: string): PolicyDecision;
  /** Fails closed (throws `missing_required_tools`) when a tool a run depends on is unavailable. */
  requireTools(names: readonly string[], options?: { loaded?: boolean }): ToolDefinition[];
  /**
   * Calls `listener` after anything a view of this instance shows may have changed: the catalog,
   * the policy, a call through `execute` or `respond` (reveals, budget use) or `results.reset()`.
   * Changes made on `disclosure.store` directly are not seen. Returns the unsubscribe function.
   */
  subscribe(listener: () => void): () => void;
  /** Increases with every change `subscribe` reports; a cheap snapshot key for UIs. */
  readonly version: number;
}

function counterFrom(option: ToolSiftOptions["tokens"]): TokenCounter {
  if (option === undefined || option === "o200k") return o200kCounter;
  if (option === "estimate") return estimateCounter;
  if (typeof option === "object" && typeof option.count === "function") return option;
  throw new ToolsiftError(
    "invalid_option",
    `tokens must be "o200k", "estimate" or an object with a count(text) method; got ${JSON.stringify(option)}.`,
  );
}

/** Tokens of one page of a spilled result: a page plus its small envelope and footer must fit the
 * result budget, or the page itself would be cut. */
function spillPageTokens(resultLimit: number): number {
  return Math.max(50, resultLimit - 60);
}

/** The tool through which the model pages a spilled result; handled by the facade. Each page
 * but the last ends with a line naming the next page, since many providers send only the text. */
function spillReader(store: SpillStore, resultLimit: number): ToolDefinition {
  const pageTokens = spillPageTokens(resultLimit);
  return {
    ...spillReadToolDefinition,
    // the model needs it as soon as a result is cut, so it is never hidden behind search
    core: true,
    maxResultTokens: resultLimit,
    handler: (args, context) => {
      const page = store.read(String(args.id), {
        page: Number(args.page ?? 1),
        pageTokens,
        session: context.session,
      });
      if (!page) {
        return {
          content: [
            {
              type: "text",
              text: `No stored result "${String(args.id)}" in this session: it expired or never existed.`,
            },
          ],
          isError: true,
        };
      }
      const more = page.done
        ? ""
        : `\n[page ${page.page} of about ${page.pages}: read page ${page.page + 1} for more]`;
      return {
        content: [{ type: "text", text: `${page.text}${more}` }],
        structuredContent: { id: page.id, page: page.page, pages: page.pages, done: page.done },
      };
    },
  };
}

/**
 * Feeds one executed call to learning: a search meta call notes the tools its queries return (the
 * engine's top 10, whether or not the model was shown all of them); a call that ran a catalog
 * tool, directly or through the call meta tool, is credited to the session's recent searches.
 * Only the queries and tool names are read, never arguments beyond the query or results.
 */
function observeUse(
  learning: UsageLearning,
  input: ExecuteInput,
  outcome: ExecuteOutcome,
  isSearch: boolean,
  search: (query: string) => SearchResult,
  get: (name: string) => ToolDefinition | undefined,
): void {
  const session = input.session ?? "";
  if (isSearch) {
    for (const query of searchQueries(input.arguments)) {
      if (query === "") continue;
      const names = search(query).hits.map((hit) => hit.name);
      learning.recorder.searched(session, query, names);
    }
    return;
  }
  if (!outcome.ran || outcome.isError === true) return;
  const tool = get(outcome.tool);
  if (tool) learning.recorder.called(session, tool);
}

/** The query strings of a search meta tool call (`queries` or `query`, a string or a list);
 * none when the arguments cannot be read (disclosure then answers the call as it would). */
function searchQueries(args: unknown): string[] {
  try {
    if (args === null || typeof args !== "object") return [];
    const { queries, query } = args as { queries?: unknown; query?: unknown };
    const given = queries ?? query;
    const list = Array.isArray(given) ? given : [given];
    return list
      .filter((item): item is string => typeof item === "string")
      .map((item) => item.trim());
  } catch {
    return [];
  }
}

/**
 * Creates a toolsift instance.
 *
 * @example
 * const sift = createToolSift({ tools, disclosure: { mode: "auto" }, policy: { profile: "coding" } });
 * const turn = sift.prepare({ session: "s1", contextWindow: 200_000 });
 * const outcome = await sift.execute({ session: "s1", name: "tool_search", arguments: { query: "issue" } });
 */
export function createToolSift(options: ToolSiftOptions = {}): ToolSift {
  checkOptionKeys(options);
  const tokenCounter = counterFrom(options.tokens);
  const onWarning = options.onWarning ?? defaultWarn;
  const catalog =
    options.catalog ??
    createCatalog([], {
      ...(options.duplicates ? { duplicates: options.duplicates } : {}),
      onWarning,
    });
  const policyOptions = options.policy ?? {};
  const layers = [...(policyOptions.layers ?? []), ...(policyOptions.rules ?? [])];
  const policy = createPolicy({
    ...(policyOptions.profile !== undefined ? { profile: policyOptions.profile } : {}),
    ...(policyOptions.profiles ? { profiles: [...policyOptions.profiles] } : {}),
    layers,
    catalog,
  });
  const budget = options.budget ?? {};
  const definitions = budget.toolDefinitions;
  if (definitions !== undefined && !(Number.isInteger(definitions) && definitions > 0)) {
    throw new ToolsiftError(
      "invalid_option",
      `budget.toolDefinitions must be a positive whole number of tokens, got ${JSON.stringify(definitions)}. Pass e.g. 8000, or leave it out for no budget.`,
    );
  }
  if (budget.spill) catalog.replace(spillReader(budget.spill, budget.perToolResult ?? 2_000));
  if (options.tools) catalog.add(options.tools);

  const { embedder, semanticWeight, embedTimeoutMs, vectors, ...indexOptions } =
    options.search ?? {};
  const index = createSearchIndex(indexOptions);
  syncSearchIndex(index, catalog);
  // a counter bumped on every change is a cheaper plan-cache key than the content fingerprint
  let catalogVersion = 0;
  catalog.onChange(() => {
    catalogVersion += 1;
  });

  const results = createSessionResultBudgets({
    // no loop total unless asked for: the per-result limit still applies to every result
    totalResults: budget.totalResults ?? Number.MAX_SAFE_INTEGER,
    ...(budget.onBudgetHit ? { onBudgetHit: budget.onBudgetHit } : {}),
  });
  const isVisible = (tool: ToolDefinition) => policy.isAllowed(tool);
  const visibleOnly = (searchOptions: SearchOptions): SearchOptions => {
    const filter = searchOptions.filter;
    return {
      ...searchOptions,
      filter: filter ? (tool) => isVisible(tool) && filter(tool) : isVisible,
    };
  };
  const lexicalSearch = (query: string, searchOptions: SearchOptions) =>
    index.search(query, searchOptions);
  const search = (query: string, searchOptions: SearchOptions = {}) =>
    index.search(query, visibleOnly(searchOptions));
  const semantic = embedder
    ? new SemanticSearch(
        {
          embedder,
          ...(semanticWeight !== undefined ? { weight: semanticWeight } : {}),
          ...(embedTimeoutMs !== undefined ? { timeoutMs: embedTimeoutMs } : {}),
          ...(vectors ? { vectors } : {}),
        },
        { list: () => catalog.list(), version: () => catalogVersion },
        onWarning,
      )
    : undefined;
  // fused when the query's vector is ready (execute and searchAsync embed first), else lexical
  const hybridSearch = (query: string, searchOptions: SearchOptions) =>
    semantic
      ? semantic.search(query, visibleOnly(searchOptions), lexicalSearch)
      : search(query, searchOptions);
  const budgetResult = async (
    result: ToolResult,
    tool: ToolDefinition,
    context?: { deadline?: number; session?: string },
  ): Promise<ToolResult> => {
    const applied = await applyResultBudget(result, {
      tool,
      ...(context?.deadline !== undefined ? { deadline: context.deadline } : {}),
      tracker: results.session(context?.session ?? ""),
      counter: tokenCounter,
      ...(budget.perToolResult !== undefined ? { perToolResult: budget.perToolResult } : {}),
      ...(budget.summarize ? { summarize: budget.summarize } : {}),
      ...(budget.summarizeThreshold !== undefined
        ? { summarizeThreshold: budget.summarizeThreshold }
        : {}),
      ...(budget.spill
        ? {
            spill: budget.spill,
            spillPageTokens: spillPageTokens(budget.perToolResult ?? 2_000),
            session: context?.session ?? "",
          }
        : {}),
    });
    return applied.value as ToolResult;
  };

  const disclosure = createDisclosure({
    // a narrow profile's closest tools are rarely what the model asked for
    withholdWeak: () => policy.profile !== DEFAULT_PROFILE,
    ...options.disclosure,
    ...(definitions !== undefined ? { definitionBudget: definitions } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    onWarning,
    catalog,
    search: hybridSearch,
    isVisible,
    visibilityVersion: () => policy.version,
    catalogVersion: () => catalogVersion,
    countTokens: (text) => tokenCounter.count(text),
    budgetResult,
  });

  // change notification for UIs (toolsift/react): one counter, bumped before listeners run; a
  // listener that throws is reported, never passed on to the call that changed something
  let version = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    version += 1;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        onWarning(`A subscribe() listener threw: ${errorText(error)}. It stays subscribed.`);
      }
    }
  };
  catalog.onChange(notify);
  policy.onChange(notify);
  // a layer selector that picks nothing (`server:slack` for `server-slack`) is a rule that does
  // nothing: said once, when the policy or the catalog it is checked against is known
  const warnedSelectors = new Set<string>();
  const checkSelectors = () => {
    for (const message of unmatchedSelectors(policy, catalog.list())) {
      if (warnedSelectors.has(message)) continue;
      warnedSelectors.add(message);
      onWarning(message);
    }
  };
  checkSelectors();
  policy.onChange(checkSelectors);
  const resetResults = results.reset;
  results.reset = (session?: string) => {
    resetResults(session);
    notify();
  };
  const learning = options.learning
    ? new UsageLearning(
        options.learning,
        (name) => catalog.get(name),
        (words) => index.setLearned(words),
      )
    : undefined;
  if (learning) catalog.onChange(() => learning.refresh(true));
  const execute: Disclosure["execute"] = async (input) => {
    try {
      const isSearch = input.name === disclosure.metaToolNames.search;
      // with an embedder the search meta tool is hybrid: its queries are embedded first
      if (semantic && isSearch) await semantic.prepare(searchQueries(input.arguments));
      learning?.refresh();
      const outcome = await disclosure.execute(input);
      if (learning) {
        const searchTop = (query: string) => search(query, { limit: 10 });
        observeUse(learning, input, outcome, isSearch, searchTop, (name) => catalog.get(name));
      }
      return outcome;
    } finally {
      notify();
    }
  };
  const providerTurns = createProviderTurns({ ...disclosure, execute });
  function prepare<P extends ProviderId>(input: ProviderTurnInput<P>): ProviderTurn<P>;
  function prepare(input: PrepareInput): TurnPlan;
  function prepare(input: PrepareInput | ProviderTurnInput): TurnPlan | ProviderTurn {
    return "provider" in input && input.provider !== undefined
      ? providerTurns.prepareFor(input)
      : disclosure.prepare(input);
  }

  return {
    catalog,
    policy,
    index,
    disclosure,
    results,
    endSession: (session) => {
      disclosure.store.clear(session);
      budget.spill?.clear(session);
      results.reset(session);
    },
    tokenCounter,
    prepare,
    respond: providerTurns.respond,
    execute,
    search,
    searchAsync: async (query, searchOptions = {}) => {
      if (semantic) await semantic.prepare([query]);
      return hybridSearch(query, searchOptions);
    },
    exportVectors: () => semantic?.exportVectors(),
    exportLearning: () => learning?.evidence.toJSON(),
    learning,
    explain: (name) => policy.explain(name),
    requireTools: (names, requireOptions) => disclosure.requireTools(names, requireOptions),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get version() {
      return version;
    },
  };
}
