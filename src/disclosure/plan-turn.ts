import type { ToolDefinition } from "../catalog/index.js";
import { buildListing, type Listing, type ListingEntry } from "./build-listing.js";
import { compactSignature } from "./compact-signature.js";
import { buildMetaTools, systemNote } from "./meta-tools.js";
import type { PlanBasis } from "./plan-basis.js";
import { firstSentence, safeName } from "./sanitize-text.js";
import type {
  AutoThreshold,
  CountTokens,
  DeferredShown,
  DeferredToolView,
  DisclosureMode,
  DisclosureStrategy,
  ListingOptions,
  MetaToolNames,
  TurnPlan,
} from "./types.js";

/** Turn settings with defaults applied (see `resolveSettings`). */
export interface ResolvedSettings {
  mode: DisclosureMode;
  strategy: DisclosureStrategy;
  auto: AutoThreshold;
  listing: ListingOptions | undefined;
  contextWindow: number | undefined;
  nativeSearch: boolean;
  names: MetaToolNames;
  defaultLimit: number;
  maxLimit: number;
}

/** Measuring helpers a plan needs. */
export interface PlanCounters {
  count: CountTokens;
  definition: (tool: ToolDefinition) => number;
  signature: (tool: ToolDefinition) => string;
}

const DEFAULT_TOOL_COUNT = 15;
const DEFAULT_CONTEXT_SHARE = 0.1;
const SUMMARY_CHARS = 60;

interface Activation {
  active: boolean;
  reason: string;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/** Decides whether disclosure is active for this turn. */
function decide(
  settings: ResolvedSettings,
  visible: number,
  deferrable: number,
  deferrableTokens: number,
): Activation {
  if (settings.mode === "off")
    return { active: false, reason: "mode off: every visible tool is loaded" };
  if (deferrable === 0)
    return { active: false, reason: "no deferrable tools: every visible tool is core" };
  if (settings.mode === "on")
    return { active: true, reason: `mode on: ${deferrable} tools deferred` };
  const window = settings.contextWindow;
  let { toolCount, contextShare } = settings.auto;
  if (toolCount === undefined && contextShare === undefined) {
    if (window !== undefined) contextShare = DEFAULT_CONTEXT_SHARE;
    else toolCount = DEFAULT_TOOL_COUNT;
  }
  if (contextShare !== undefined && window === undefined && toolCount === undefined) {
    toolCount = DEFAULT_TOOL_COUNT; // a share needs a window; fall back to counting tools
  }
  const reasons: string[] = [];
  if (contextShare !== undefined && window !== undefined) {
    const share = deferrableTokens / window;
    // tolerate float noise so exactly-at-threshold activates
    if (share + 1e-12 >= contextShare) {
      return {
        active: true,
        reason: `auto: deferrable definitions take ${percent(share)} of the context window (threshold ${percent(contextShare)})`,
      };
    }
    reasons.push(`${percent(share)} of the context window < ${percent(contextShare)}`);
  }
  if (toolCount !== undefined) {
    if (visible >= toolCount) {
      return { active: true, reason: `auto: ${visible} visible tools (threshold ${toolCount})` };
    }
    reasons.push(`${visible} visible tools < ${toolCount}`);
  }
  return { active: false, reason: `auto: below threshold (${reasons.join("; ")})` };
}

function listingBudget(options: ListingOptions, window: number | undefined): number {
  if (options.maxTokens !== undefined) return options.maxTokens;
  return window === undefined ? 4_000 : Math.min(4_000, Math.floor(window * 0.05));
}

function sumTokens(tools: readonly ToolDefinition[], counters: PlanCounters): number {
  let total = 0;
  for (const tool of tools) total += counters.definition(tool);
  return total;
}

/**
 * Builds the provider-neutral plan of one turn: loaded tools, deferred views, meta tools, note.
 *
 * Core tools are loaded whatever the settings: they are copied first and nothing later removes
 * entries. Under `reveal`, revealed tools (visible and deferrable only) are appended in reveal
 * order. Everything else is sorted by name, so equal inputs give byte-identical plans.
 */
export function planTurn(
  basis: PlanBasis,
  settings: ResolvedSettings,
  revealed: readonly string[],
  counters: PlanCounters,
): TurnPlan {
  const deferrableTokens = sumTokens(basis.deferrable, counters);
  const coreTokens = sumTokens(basis.core, counters);
  const { active, reason } = decide(
    settings,
    basis.visible.size,
    basis.deferrable.length,
    deferrableTokens,
  );
  const strategy = settings.strategy;
  const stats = {
    visible: basis.visible.size,
    core: basis.core.length,
    deferrable: basis.deferrable.length,
    loaded: 0,
    deferred: 0,
    revealed: 0,
    allTokens: deferrableTokens + coreTokens,
    deferrableTokens,
    loadedTokens: 0,
    metaTokens: 0,
    listingTokens: 0,
    listingTier: "none" as Listing["tier"],
  };
  const loaded: ToolDefinition[] = [...basis.core];
  if (!active) {
    loaded.push(...basis.deferrable);
    loaded.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    stats.loaded = loaded.length;
    stats.loadedTokens = stats.allTokens;
    return freezePlan({
      loaded,
      deferred: [],
      metaTools: [],
      system: "",
      active,
      reason,
      strategy,
      nativeSearch: settings.nativeSearch,
      stats,
    });
  }

  const promoted = new Set<string>();
  if (strategy === "reveal" && !settings.nativeSearch) {
    for (const name of revealed) {
      const tool = basis.visible.get(name);
      if (!tool || !basis.deferrableNames.has(name) || promoted.has(name)) continue;
      promoted.add(name);
      loaded.push(tool);
    }
  }
  const waiting = basis.deferrable.filter((tool) => !promoted.has(tool.name));
  let listing: Listing | undefined;
  if (settings.listing && !settings.nativeSearch) {
    listing = cachedListing(basis, settings.listing, settings.contextWindow, counters);
  }
  const fallback: DeferredShown = settings.nativeSearch ? "native" : "search";
  const deferred: DeferredToolView[] = waiting.map((tool) => {
    const view: DeferredToolView = {
      name: tool.name,
      summary: summaryOf(tool),
      signature: counters.signature(tool),
      shown: listing?.shown.get(safeName(tool.name)) ?? fallback,
      tool,
    };
    if (tool.server !== undefined) view.server = tool.server;
    return view;
  });
  const metaTools = settings.nativeSearch
    ? []
    : buildMetaTools({
        names: settings.names,
        strategy,
        searchable: basis.deferrable.length,
        defaultLimit: settings.defaultLimit,
        maxLimit: settings.maxLimit,
        listing: listing?.text ?? "",
      });
  stats.loaded = loaded.length;
  stats.deferred = deferred.length;
  stats.revealed = promoted.size;
  stats.loadedTokens = sumTokens(loaded, counters);
  stats.metaTokens = sumTokens(metaTools, counters);
  stats.listingTokens = listing?.tokens ?? 0;
  stats.listingTier = listing?.tier ?? "none";
  const system = systemNote(settings.names, strategy, settings.nativeSearch);
  return freezePlan({
    loaded,
    deferred,
    metaTools,
    system,
    active,
    reason,
    strategy,
    nativeSearch: settings.nativeSearch,
    stats,
  });
}

const listings = new WeakMap<PlanBasis, Map<string, Listing>>();
const summaries = new WeakMap<ToolDefinition, string>();

function summaryOf(tool: ToolDefinition): string {
  let summary = summaries.get(tool);
  if (summary === undefined) {
    summary = firstSentence(tool.description, 160);
    summaries.set(tool, summary);
  }
  return summary;
}

/** The listing of a basis, built once per basis, options and window: reveals never change it. */
function cachedListing(
  basis: PlanBasis,
  options: ListingOptions,
  window: number | undefined,
  counters: PlanCounters,
): Listing {
  let perBasis = listings.get(basis);
  if (!perBasis) {
    perBasis = new Map();
    listings.set(basis, perBasis);
  }
  const key = JSON.stringify([options.maxTokens, options.summaryChars, window]);
  let listing = perBasis.get(key);
  if (!listing) {
    // the listing covers every deferrable tool, not only unrevealed ones, so reveals never
    // change the search tool's description (a cache-busting edit early in the tools array)
    const summaryChars = options.summaryChars ?? SUMMARY_CHARS;
    const entries: ListingEntry[] = basis.deferrable.map((tool) => ({
      name: safeName(tool.name),
      server: tool.server === undefined ? undefined : safeName(tool.server),
      summary: firstSentence(tool.description, summaryChars),
    }));
    listing = buildListing(entries, listingBudget(options, window), counters.count);
    perBasis.set(key, listing);
  }
  return listing;
}

function freezePlan(plan: TurnPlan): TurnPlan {
  Object.freeze(plan.loaded);
  Object.freeze(plan.deferred);
  Object.freeze(plan.metaTools);
  Object.freeze(plan.stats);
  return Object.freeze(plan);
}

/** Memoised compact signatures per definition object. */
export function createSignatureCache(): (tool: ToolDefinition) => string {
  const memo = new WeakMap<ToolDefinition, string>();
  return (tool) => {
    let signature = memo.get(tool);
    if (signature === undefined) {
      signature = compactSignature(tool);
      memo.set(tool, signature);
    }
    return signature;
  };
}
