/**
 * `createToolSift`: the facade that wires catalog, search, policy, budgets and disclosure into
 * one object with `prepare`, `execute` and `search`. Every part stays reachable for callers who
 * need more (`sift.catalog`, `sift.policy`, `sift.index`, `sift.disclosure`, `sift.results`).
 */

import { createSessionResultBudgets, type SessionResultBudgets } from "./budget/index.js";
import type { Catalog, ToolDefinition } from "./catalog/index.js";
import { createCatalog } from "./catalog/index.js";
import {
  createDisclosure,
  createResultBudget,
  type Disclosure,
  type DisclosureOptions,
  type ExecuteInput,
  type ExecuteOutcome,
  type PrepareInput,
  spillReader,
  type TurnPlan,
  type TurnSettings,
} from "./disclosure/index.js";
import { ToolsiftError } from "./errors.js";
import { defaultWarn, errorText } from "./internal/index.js";
import { createUseObserver } from "./learn-from-use.js";
import { type LearningSnapshot, UsageLearning } from "./learning/index.js";
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
  type IndexStore,
  type SavedVectors,
  type SearchOptions,
  type SearchResult,
  SemanticSearch,
  syncSearchIndex,
  type ToolSearchIndex,
} from "./search/index.js";
import { estimateCounter, o200kCounter, type TokenCounter } from "./tokens/index.js";
import type { SearchOptionsOfToolSift, ToolSiftOptions } from "./toolsift-options.js";

export type {
  BudgetOptions,
  SearchOptionsOfToolSift,
  ToolSiftOptions,
} from "./toolsift-options.js";

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
  /** The search index as bytes, to pass as `index` to `createToolSift` in a later process (see
   * `ToolSearchIndex.exportSnapshot`). */
  exportIndex(): Uint8Array;
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

function createPolicyOf(options: ToolSiftOptions["policy"], catalog: Catalog): Policy {
  const policyOptions = options ?? {};
  return createPolicy({
    ...(policyOptions.profile !== undefined ? { profile: policyOptions.profile } : {}),
    ...(policyOptions.profiles ? { profiles: [...policyOptions.profiles] } : {}),
    layers: [...(policyOptions.layers ?? []), ...(policyOptions.rules ?? [])],
    catalog,
  });
}

function checkDefinitionBudget(definitions: number | undefined): void {
  if (definitions !== undefined && !(Number.isInteger(definitions) && definitions > 0)) {
    throw new ToolsiftError(
      "invalid_option",
      `budget.toolDefinitions must be a positive whole number of tokens, got ${JSON.stringify(definitions)}. Pass e.g. 8000, or leave it out for no budget.`,
    );
  }
}

/** The index and the three ways to search it: lexical over visible tools, hybrid (fused when the
 * query's vector is ready, else lexical), and hybrid after embedding the query first. */
function createSearchParts(
  options: SearchOptionsOfToolSift,
  catalog: Catalog,
  policy: Policy,
  onWarning: (message: string) => void,
  saved: Uint8Array | IndexStore | undefined,
) {
  const { embedder, semanticWeight, embedTimeoutMs, vectors, ...indexOptions } = options;
  const snapshot = saved instanceof Uint8Array ? saved : undefined;
  const index = createSearchIndex({
    ...indexOptions,
    ...(snapshot !== undefined ? { snapshot } : {}),
    onWarning,
  });
  syncSearchIndex(index, catalog, saved instanceof Uint8Array ? undefined : saved);
  // a counter bumped on every change is a cheaper plan-cache key than the content fingerprint
  let catalogVersion = 0;
  catalog.onChange(() => {
    catalogVersion += 1;
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
  const hybridSearch = (query: string, searchOptions: SearchOptions) =>
    semantic
      ? semantic.search(query, visibleOnly(searchOptions), lexicalSearch)
      : search(query, searchOptions);
  return {
    index,
    isVisible,
    search,
    hybridSearch,
    semantic,
    catalogVersion: () => catalogVersion,
    searchAsync: async (query: string, searchOptions: SearchOptions = {}) => {
      if (semantic) await semantic.prepare([query]);
      return hybridSearch(query, searchOptions);
    },
  };
}

/** Change notification for UIs (toolsift/react): one counter, bumped before listeners run; a
 * listener that throws is reported, never passed on to the call that changed something. */
function createNotifier(onWarning: (message: string) => void) {
  let version = 0;
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      version += 1;
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch (error) {
          onWarning(`A subscribe() listener threw: ${errorText(error)}. It stays subscribed.`);
        }
      }
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    version: () => version,
  };
}

/** A layer selector that picks nothing (`server:slack` for `server-slack`) is a rule that does
 * nothing: said once, whenever the policy or the catalog it is checked against changes. */
function warnUnmatchedSelectors(
  policy: Policy,
  catalog: Catalog,
  onWarning: (message: string) => void,
): void {
  const warned = new Set<string>();
  const check = () => {
    for (const message of unmatchedSelectors(policy, catalog.list())) {
      if (warned.has(message)) continue;
      warned.add(message);
      onWarning(message);
    }
  };
  check();
  policy.onChange(check);
}

/** `results.reset()` changes what a view shows, so it notifies like any other change. */
function notifyOnReset(results: SessionResultBudgets, notify: () => void): void {
  const resetResults = results.reset;
  results.reset = (session?: string) => {
    resetResults(session);
    notify();
  };
}

/** `prepare`: the provider's request fragment with a `provider`, else the neutral plan. */
function preparerOf(
  providerTurns: ReturnType<typeof createProviderTurns>,
  disclosure: Disclosure,
): ToolSift["prepare"] {
  function prepare<P extends ProviderId>(input: ProviderTurnInput<P>): ProviderTurn<P>;
  function prepare(input: PrepareInput): TurnPlan;
  function prepare(input: PrepareInput | ProviderTurnInput): TurnPlan | ProviderTurn {
    return "provider" in input && input.provider !== undefined
      ? providerTurns.prepareFor(input)
      : disclosure.prepare(input);
  }
  return prepare;
}

/** The disclosure layer over the facade's parts: the search meta tool runs the hybrid search,
 * visibility follows the policy, and each result is budgeted per session. */
function discloseWith(
  options: ToolSiftOptions,
  parts: {
    catalog: Catalog;
    policy: Policy;
    searching: ReturnType<typeof createSearchParts>;
    tokenCounter: TokenCounter;
    results: SessionResultBudgets;
    /** Learning reads what each search returned from the search step itself. */
    onSearched?: DisclosureOptions["onSearched"];
  },
): Disclosure {
  const { catalog, policy, searching, tokenCounter, results, onSearched } = parts;
  const budget = options.budget ?? {};
  const definitions = budget.toolDefinitions;
  const { semantic } = searching;
  return createDisclosure({
    // a narrow profile's closest tools are rarely what the model asked for
    withholdWeak: () => policy.profile !== DEFAULT_PROFILE,
    ...options.disclosure,
    ...(definitions !== undefined ? { definitionBudget: definitions } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
    onWarning: options.onWarning ?? defaultWarn,
    catalog,
    search: searching.hybridSearch,
    // with an embedder the search meta tool is hybrid: the queries it runs are embedded first
    ...(semantic ? { embedQueries: (queries) => semantic.prepare(queries) } : {}),
    ...(onSearched ? { onSearched } : {}),
    isVisible: searching.isVisible,
    visibilityVersion: () => policy.version,
    catalogVersion: searching.catalogVersion,
    countTokens: (text) => tokenCounter.count(text),
    budgetResult: createResultBudget(budget, { results, counter: tokenCounter }),
  });
}

/** With `learning` set: the usage learning, refreshed when the catalog changes, and the observer
 * that feeds it each search's hits and each executed call. */
function learnFromUse(
  settings: ToolSiftOptions["learning"],
  catalog: Catalog,
  searching: ReturnType<typeof createSearchParts>,
) {
  if (!settings) return { learning: undefined, observeUse: undefined };
  const learning = new UsageLearning(
    settings,
    (name) => catalog.get(name),
    (words) => searching.index.setLearned(words),
  );
  catalog.onChange(() => learning.refresh(true));
  const observeUse = createUseObserver(learning, (name) => catalog.get(name));
  return { learning, observeUse };
}

/** A new catalog with the options' duplicate rule (the tools are added once the policy exists). */
function emptyCatalog(options: ToolSiftOptions, onWarning: (message: string) => void): Catalog {
  return createCatalog([], {
    ...(options.duplicates ? { duplicates: options.duplicates } : {}),
    onWarning,
  });
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
  const catalog = options.catalog ?? emptyCatalog(options, onWarning);
  const policy = createPolicyOf(options.policy, catalog);
  const budget = options.budget ?? {};
  checkDefinitionBudget(budget.toolDefinitions);
  if (budget.spill) catalog.replace(spillReader(budget.spill, budget.perToolResult));
  if (options.tools) catalog.add(options.tools);
  const searching = createSearchParts(
    options.search ?? {},
    catalog,
    policy,
    onWarning,
    options.index,
  );
  const results = createSessionResultBudgets({
    // no loop total unless asked for: the per-result limit still applies to every result
    totalResults: budget.totalResults ?? Number.MAX_SAFE_INTEGER,
    ...(budget.onBudgetHit ? { onBudgetHit: budget.onBudgetHit } : {}),
  });
  const { semantic } = searching;
  const { learning, observeUse } = learnFromUse(options.learning, catalog, searching);
  const disclosure = discloseWith(options, {
    catalog,
    policy,
    searching,
    tokenCounter,
    results,
    ...(observeUse ? { onSearched: observeUse.searched } : {}),
  });
  const notifier = createNotifier(onWarning);
  catalog.onChange(notifier.notify);
  policy.onChange(notifier.notify);
  warnUnmatchedSelectors(policy, catalog, onWarning);
  notifyOnReset(results, notifier.notify);
  const execute: Disclosure["execute"] = async (input) => {
    try {
      learning?.refresh();
      const outcome = await disclosure.execute(input);
      observeUse?.called(input.session ?? "", outcome);
      return outcome;
    } finally {
      notifier.notify();
    }
  };
  const providerTurns = createProviderTurns({ ...disclosure, execute });
  return {
    catalog,
    policy,
    index: searching.index,
    disclosure,
    results,
    endSession: (session) => {
      disclosure.store.clear(session);
      budget.spill?.clear(session);
      results.reset(session);
    },
    tokenCounter,
    prepare: preparerOf(providerTurns, disclosure),
    respond: providerTurns.respond,
    execute,
    search: searching.search,
    searchAsync: searching.searchAsync,
    exportVectors: () => semantic?.exportVectors(),
    exportIndex: () => searching.index.exportSnapshot(),
    exportLearning: () => learning?.evidence.toJSON(),
    learning,
    explain: (name) => policy.explain(name),
    requireTools: (names, requireOptions) => disclosure.requireTools(names, requireOptions),
    subscribe: notifier.subscribe,
    get version() {
      return notifier.version();
    },
  };
}
