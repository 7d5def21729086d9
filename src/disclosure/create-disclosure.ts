import type { ToolDefinition } from "../catalog/index.js";
import { type MissingTool, MissingToolsError } from "../errors.js";
import { defaultWarn, recordOf, suggestNames } from "../internal/index.js";
import { executeCall } from "./call/execute-call.js";
import type { MetaContext } from "./meta/meta-handlers.js";
import { createDefinitionCounter, estimateTokens } from "./plan/estimate-tokens.js";
import { type PlanBasis, type PlanCounters, visibleTool } from "./plan/plan-basis.js";
import { createPlanCache, PLAN_CACHE_SIZE } from "./plan/plan-cache.js";
import { createSignatureCache } from "./plan/plan-turn.js";
import { checkCreationOptions, checkTimeout, resolveSettings } from "./plan/resolve-settings.js";
import { createMemoryRevealStore, type RevealStore } from "./reveal-store.js";
import { revealsFromTranscript, type TranscriptEntry } from "./transcript-reveals.js";
import type {
  DisclosureOptions,
  ExecuteInput,
  ExecuteOutcome,
  MetaToolNames,
  PrepareInput,
  TurnPlan,
  TurnSettings,
} from "./types.js";

/**
 * Call counters keyed by real tool name and by route (search/describe/call are meta tools).
 * `calls` has no prototype, so every tool name (even `__proto__`) is an own key.
 */
export interface DisclosureMetrics {
  calls: { [tool: string]: number };
  routes: { direct: number; bridge: number; meta: number };
  errors: number;
  /** Entries held by this instance's caches and their bounds (least recently used evicted first). */
  caches: { plans: { size: number; limit: number } };
}

/** Options of `requireTools`. */
export interface RequireToolsOptions extends TurnSettings {
  /** Also fail when a required tool would be deferred rather than loaded (default false). */
  loaded?: boolean;
}

/** The disclosure layer of one toolsift instance. */
export interface Disclosure {
  /** Plans a turn; cached while the catalog, visibility, session reveals and settings are unchanged. */
  prepare(input: PrepareInput): TurnPlan;
  /** Executes a model tool call (direct, bridge or meta); never throws for model input. */
  execute(input: ExecuteInput & TurnSettings): Promise<ExecuteOutcome>;
  /** Returns the required tools, or throws `missing_required_tools` naming each missing one. */
  requireTools(names: readonly string[], options?: RequireToolsOptions): ToolDefinition[];
  /** Re-reveals what an earlier transcript revealed; returns the names restored. */
  restoreSession(
    session: string,
    transcript: readonly TranscriptEntry[],
    settings?: TurnSettings,
  ): string[];
  metrics(): DisclosureMetrics;
  readonly store: RevealStore;
  readonly metaToolNames: MetaToolNames;
}

const OFFERED_SESSIONS = 1_000;
const TURN_KEYS = [
  "mode",
  "strategy",
  "auto",
  "listing",
  "neverDefer",
  "contextWindow",
  "nativeSearch",
  "keepMetaTools",
  "definitionBudget",
] as const satisfies readonly (keyof TurnSettings)[];

/** The sanitiser applied once per definition object (so plans stay byte-identical and cached). */
function descriptionSanitizer(
  sanitize: DisclosureOptions["sanitizeDescription"],
): ((tool: ToolDefinition) => ToolDefinition) | undefined {
  if (!sanitize) return undefined;
  const memo = new WeakMap<ToolDefinition, ToolDefinition>();
  return (tool) => {
    let adapted = memo.get(tool);
    if (!adapted) {
      let description: unknown;
      try {
        description = sanitize(tool.description, tool);
      } catch {
        description = undefined;
      }
      // a failing or odd sanitiser must not let the raw text through
      adapted = {
        ...tool,
        description: typeof description === "string" ? description : "(description withheld)",
      };
      memo.set(tool, adapted);
    }
    return adapted;
  };
}

/** Tools a session already has loaded through reveals (none under bridge or native search). */
function loadedOf(
  session: string,
  basis: PlanBasis,
  settings: { strategy: string; nativeSearch: boolean },
  store?: RevealStore,
): ReadonlySet<string> {
  if (!store || settings.strategy !== "reveal" || settings.nativeSearch) return new Set();
  return new Set(store.revealed(session).filter((name) => basis.deferrableNames.has(name)));
}

/** What the meta tool handlers read for one call. */
function metaContextOf(
  options: DisclosureOptions,
  turn: Pick<MetaContext, "basis" | "settings" | "count" | "loaded">,
  session: string,
): MetaContext {
  const { onSearched } = options;
  return {
    ...turn,
    ...(onSearched ? { onSearched: (query, tools) => onSearched({ session, query, tools }) } : {}),
    search: options.search,
    responseTokens: options.searchResponseTokens ?? 600,
    withholdWeak:
      typeof options.withholdWeak === "function"
        ? options.withholdWeak()
        : options.withholdWeak === true,
    describeTokens: options.describeResponseTokens ?? 4_000,
  };
}

/** Counts calls by real tool and by route, and errors, as the outcomes come. */
function createCallMetrics() {
  // a Map, not an object: tools named "__proto__" or "constructor" are counted like any other
  const calls = new Map<string, number>();
  const routes = { direct: 0, bridge: 0, meta: 0 };
  let errors = 0;
  return {
    record: (outcome: ExecuteOutcome) => {
      routes[outcome.route] += 1;
      if (outcome.errorCode !== undefined) errors += 1;
      if (outcome.errorCode !== "tool_not_found") {
        calls.set(outcome.tool, (calls.get(outcome.tool) ?? 0) + 1);
      }
    },
    counts: () => ({ calls: recordOf(calls), routes: { ...routes }, errors }),
  };
}

/** The required tools from a turn's basis, or `MissingToolsError` naming each missing one. */
function requiredTools(
  names: readonly string[],
  basis: PlanBasis,
  catalogTools: readonly ToolDefinition[],
  requireOptions: RequireToolsOptions,
): ToolDefinition[] {
  const all = new Map(catalogTools.map((tool) => [tool.name, tool]));
  const found: ToolDefinition[] = [];
  const missing: MissingTool[] = [];
  for (const name of names) {
    const tool = visibleTool(basis, name);
    if (tool && requireOptions.loaded && basis.deferrableNames.has(name)) {
      missing.push({ name, reason: "deferred", suggestions: [] });
    } else if (tool) {
      found.push(tool);
    } else if (all.has(name)) {
      missing.push({ name, reason: "hidden", suggestions: [] });
    } else {
      missing.push({ name, reason: "not_found", suggestions: suggestNames(name, all.keys()) });
    }
  }
  if (missing.length > 0) throw new MissingToolsError(missing);
  return found;
}

/**
 * The meta tools each session was last offered: `prepare` plans a turn and remembers its meta
 * tools; `offeredFor` answers by the turn settings a call carries, else by the session's last
 * prepared plan (a host need not repeat its turn settings on every call).
 */
function trackOffered(planFor: (input: PrepareInput) => TurnPlan) {
  // the meta tools of each session's last prepared plan: what the model was actually offered
  const offeredBySession = new Map<string, ReadonlySet<string>>();
  const prepare = (input: PrepareInput): TurnPlan => {
    const plan = planFor(input);
    offeredBySession.delete(input.session);
    offeredBySession.set(input.session, new Set(plan.metaTools.map((tool) => tool.name)));
    for (const old of offeredBySession.keys()) {
      if (offeredBySession.size <= OFFERED_SESSIONS) break;
      offeredBySession.delete(old);
    }
    return plan;
  };
  const offeredFor = (input: ExecuteInput & TurnSettings): ReadonlySet<string> => {
    const carriesSettings = TURN_KEYS.some((key) => input[key] !== undefined);
    const remembered = carriesSettings ? undefined : offeredBySession.get(input.session);
    return remembered ?? new Set(planFor(input).metaTools.map((tool) => tool.name));
  };
  return { prepare, offeredFor };
}

/**
 * Creates the disclosure layer over a catalog, a search function and (optionally) a policy.
 *
 * @example
 * const disclosure = createDisclosure({ catalog, search: (q, o) => index.search(q, o) });
 * const plan = disclosure.prepare({ session: "s1", contextWindow: 200_000 });
 * const outcome = await disclosure.execute({ session: "s1", name: "tool_search", arguments: { queries: ["issue"] } });
 */
export function createDisclosure(options: DisclosureOptions): Disclosure {
  checkCreationOptions(options);
  const base = resolveSettings(options, {}); // fail fast on bad creation options
  const count = options.countTokens ?? estimateTokens;
  const counters: PlanCounters = {
    count,
    definition: createDefinitionCounter(count),
    signature: createSignatureCache(),
  };
  const store = options.store ?? createMemoryRevealStore();
  const { planFor, turnBasis, size } = createPlanCache(options, {
    names: base.names,
    adapt: descriptionSanitizer(options.sanitizeDescription),
    warn: options.onWarning ?? defaultWarn,
    counters,
    store,
  });
  const callMetrics = createCallMetrics();
  const { prepare, offeredFor } = trackOffered(planFor);
  const record = callMetrics.record;

  const execute = (input: ExecuteInput & TurnSettings): Promise<ExecuteOutcome> => {
    checkTimeout(input.timeoutMs);
    const settings = resolveSettings(options, input);
    const basis = turnBasis(input, settings);
    // a meta tool answers only when this turn's plan offers it (mode off offers none); a call
    // of a plain tool never needs the plan or the meta context, so both are built when asked
    let offered: ReadonlySet<string> | undefined;
    let meta: MetaContext | undefined;
    return executeCall(input, {
      options,
      settings,
      basis,
      store,
      record,
      offered: () => {
        offered ??= offeredFor(input);
        return offered;
      },
      meta: () => {
        if (meta) return meta;
        const loaded = loadedOf(input.session, basis, settings, store);
        meta = metaContextOf(options, { basis, settings, count, loaded }, input.session);
        return meta;
      },
    });
  };

  const requireTools = (names: readonly string[], requireOptions: RequireToolsOptions = {}) =>
    requiredTools(names, turnBasis(requireOptions), options.catalog.list(), requireOptions);

  const restoreSession = (
    session: string,
    transcript: readonly TranscriptEntry[],
    settings: TurnSettings = {},
  ) => {
    const basis = turnBasis(settings);
    const metaNames = new Set([base.names.search, base.names.describe, base.names.call]);
    const names = revealsFromTranscript(transcript, metaNames).filter((name) =>
      basis.deferrableNames.has(name),
    );
    return store.reveal(session, names);
  };

  return {
    prepare,
    execute,
    requireTools,
    restoreSession,
    metrics: () => ({
      ...callMetrics.counts(),
      caches: { plans: { size: size(), limit: PLAN_CACHE_SIZE } },
    }),
    store,
    metaToolNames: base.names,
  };
}
