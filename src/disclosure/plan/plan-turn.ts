import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { safeName } from "../../text/index.js";
import { buildMetaTools, systemNote } from "../meta/meta-tools.js";
import type {
  DeferredShown,
  DeferredToolView,
  DefinitionBudgetReport,
  TurnPlan,
} from "../types.js";
import { cachedListing, directoryOf, summaryOf } from "./basis-views.js";
import type { Listing } from "./build-listing.js";
import { compactSignature } from "./compact-signature.js";
import { type Activation, decideActivation } from "./decide-activation.js";
import { byName, nameSample, type PlanBasis, type PlanCounters } from "./plan-basis.js";
import type { ResolvedSettings } from "./resolved-settings.js";
import { tallyOf } from "./token-tally.js";

/** Tokens of a list of definitions by the plan's counter. */
export function sumTokens(tools: readonly ToolDefinition[], counters: PlanCounters): number {
  let total = 0;
  for (const tool of tools) total += counters.definition(tool);
  return total;
}

/** The meta tools a plan over `basis` emits when active (none under native search). */
export function metaToolsFor(
  basis: PlanBasis,
  settings: ResolvedSettings,
  counters: PlanCounters,
): ToolDefinition[] {
  if (settings.nativeSearch) return [];
  return buildMetaTools({
    names: settings.names,
    strategy: settings.strategy,
    searchable: basis.deferrable.length,
    defaultLimit: settings.defaultLimit,
    maxLimit: settings.maxLimit,
    listing: appendedText(basis, settings, counters),
  });
}

/** What follows the search tool's description: the server directory, then the listing. */
function appendedText(basis: PlanBasis, settings: ResolvedSettings, counters: PlanCounters) {
  const directory = directoryOf(basis, settings, counters);
  const listing = settings.listing
    ? cachedListing(basis, settings.listing, settings.contextWindow, counters)
    : undefined;
  return [directory?.text, listing?.text].filter(Boolean).join("\n\n");
}

/**
 * Revealed tools to promote, in reveal order. Under a definitions budget they are chosen
 * newest-first while they fit in `room`; the rest are returned as `skipped` and stay deferred.
 */
function chooseReveals(
  basis: PlanBasis,
  revealed: readonly string[],
  room: number | undefined,
  slots: number | undefined,
  counters: PlanCounters,
): { chosen: ToolDefinition[]; skipped: string[] } {
  const candidates = new Map<string, ToolDefinition>();
  for (const name of revealed) {
    const tool = basis.visible.get(name);
    if (tool && basis.deferrableNames.has(name)) candidates.set(name, tool);
  }
  if (room === undefined && slots === undefined) {
    return { chosen: [...candidates.values()], skipped: [] };
  }
  const kept = new Set<string>();
  const skipped: string[] = [];
  let left = room ?? Number.POSITIVE_INFINITY;
  let free = slots ?? Number.POSITIVE_INFINITY;
  for (const tool of [...candidates.values()].reverse()) {
    const size = room === undefined ? 0 : counters.definition(tool);
    if (size <= left && free > 0) {
      kept.add(tool.name);
      left -= size;
      free -= 1;
    } else skipped.push(tool.name);
  }
  return { chosen: [...candidates.values()].filter((tool) => kept.has(tool.name)), skipped };
}

/** Names the core tools in a too-many-tools message: they are sent even with disclosure on. */
function coreNote(basis: PlanBasis): string {
  return basis.core.length === 0
    ? ""
    : `; ${basis.core.length} of them core (${nameSample(basis.core.map((tool) => tool.name))})`;
}

function budgetReport(
  limit: number,
  used: number,
  dropped: Iterable<string>,
): DefinitionBudgetReport {
  const sorted = [...new Set(dropped)].sort((a, b) => byName({ name: a }, { name: b }));
  return { limit, used, dropped: sorted, overBudget: used > limit };
}

/** The plan's figures, zero until the plan fills them; the exact totals of every visible
 * definition are lazy: they cost a count of the whole catalog (seconds at 100k tools), so they are
 * counted when a host reads them, not to decide activation. */
function newStats(basis: PlanBasis, allTokens: () => number, deferrableTokens: () => number) {
  const stats = {
    visible: basis.visible.size,
    core: basis.core.length,
    deferrable: basis.deferrable.length,
    loaded: 0,
    deferred: 0,
    revealed: 0,
    allTokens: 0,
    deferrableTokens: 0,
    loadedTokens: 0,
    metaTokens: 0,
    listingTokens: 0,
    directoryTokens: 0,
    listingTier: "none" as Listing["tier"],
  };
  lazyField(stats, "allTokens", allTokens);
  lazyField(stats, "deferrableTokens", deferrableTokens);
  return stats;
}

type PlanStats = ReturnType<typeof newStats>;

/** The plan with disclosure off for this turn: every visible tool loaded, unless that is more
 * than the provider takes. */
function inactivePlan(
  basis: PlanBasis,
  settings: ResolvedSettings,
  activation: Activation,
  stats: PlanStats,
  allTokens: () => number,
): TurnPlan {
  const most = settings.maxTools;
  if (most !== undefined && basis.visible.size > most) {
    throw new ToolsiftError(
      "too_many_tools",
      `${basis.visible.size} tools would be sent with disclosure off (${activation.reason()}), more than the provider's limit of ${most} tools per request${coreNote(basis)}. Use mode "auto" or "on" so toolsift defers the rest, or hide tools with the policy.`,
    );
  }
  const loaded: ToolDefinition[] = [...basis.core, ...basis.deferrable];
  loaded.sort(byName);
  stats.loaded = loaded.length;
  lazyField(stats, "loadedTokens", allTokens);
  const plan = withReason(
    {
      loaded,
      deferred: [],
      metaTools: [],
      system: "",
      active: false,
      strategy: settings.strategy,
      nativeSearch: settings.nativeSearch,
      stats,
    },
    activation.reason,
  );
  // only reported in mode off (or with nothing deferrable): there is nothing left to defer
  const limit = settings.definitionBudget;
  if (limit !== undefined) plan.budget = budgetReport(limit, allTokens(), []);
  return freezePlan(plan);
}

/** Under `reveal` (not native search), the revealed tools loaded this turn: within the room the
 * definitions budget and the provider's tool limit leave beside the meta and core tools
 * (`fixedTokens`: their tokens). */
function promotedReveals(
  basis: PlanBasis,
  settings: ResolvedSettings,
  revealed: readonly string[],
  metaTools: readonly ToolDefinition[],
  fixedTokens: () => number,
  counters: PlanCounters,
): { chosen: ToolDefinition[]; skipped: string[] } {
  if (settings.strategy !== "reveal" || settings.nativeSearch) return { chosen: [], skipped: [] };
  const limit = settings.definitionBudget;
  const room = limit === undefined ? undefined : limit - fixedTokens();
  const slots =
    settings.maxTools === undefined
      ? undefined
      : settings.maxTools - metaTools.length - basis.core.length;
  return chooseReveals(basis, revealed, room, slots, counters);
}

/** The deferred tools as the plan shows them, each marked with where the model can see it. */
function deferredViews(
  waiting: readonly ToolDefinition[],
  listing: Listing | undefined,
  settings: ResolvedSettings,
  counters: PlanCounters,
): DeferredToolView[] {
  const fallback: DeferredShown = settings.nativeSearch ? "native" : "search";
  return waiting.map((tool) => {
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
}

/**
 * Builds the provider-neutral plan of one turn: loaded tools, deferred views, meta tools, note.
 *
 * Core tools of the basis are loaded whatever the settings: they are copied first and nothing
 * later removes entries (a definitions budget acts earlier, in `budgetedBasis`). Under `reveal`,
 * revealed tools (visible and deferrable only) are appended in reveal order; with a budget, only
 * the newest that fit beside the meta and core tools. Everything else is sorted by name, so
 * equal inputs give byte-identical plans.
 */
export function planTurn(
  basis: PlanBasis,
  settings: ResolvedSettings,
  revealed: readonly string[],
  counters: PlanCounters,
): TurnPlan {
  const deferrableTally = tallyOf(basis.deferrable, counters.definition);
  const coreTally = tallyOf(basis.core, counters.definition);
  const activation = decideActivation(settings, {
    visible: basis.visible.size,
    deferrable: basis.deferrable.length,
    deferrableTokens: deferrableTally,
    coreTokens: coreTally,
  });
  const allTokens = () => coreTally.exact() + deferrableTally.exact();
  const stats = newStats(basis, allTokens, () => deferrableTally.exact());
  if (!activation.active) return inactivePlan(basis, settings, activation, stats, allTokens);

  const limit = settings.definitionBudget;
  const metaTools = metaToolsFor(basis, settings, counters);
  stats.metaTokens = sumTokens(metaTools, counters);
  const reveals = promotedReveals(
    basis,
    settings,
    revealed,
    metaTools,
    // the core tools' exact size is counted only when a budget needs it
    () => stats.metaTokens + coreTally.exact(),
    counters,
  );
  const promoted = new Set(reveals.chosen.map((tool) => tool.name));
  const loaded: ToolDefinition[] = [...basis.core, ...reveals.chosen];
  const waiting = basis.deferrable.filter((tool) => !promoted.has(tool.name));
  const listing =
    settings.listing && !settings.nativeSearch
      ? cachedListing(basis, settings.listing, settings.contextWindow, counters)
      : undefined;
  const deferred = deferredViews(waiting, listing, settings, counters);
  stats.loaded = loaded.length;
  stats.deferred = deferred.length;
  stats.revealed = promoted.size;
  stats.loadedTokens = sumTokens(loaded, counters);
  stats.listingTokens = listing?.tokens ?? 0;
  stats.listingTier = listing?.tier ?? "none";
  const directory = directoryOf(basis, settings, counters);
  stats.directoryTokens = directory?.tokens ?? 0;
  const note = systemNote(settings.names, settings.strategy, settings.nativeSearch);
  // under native search there is no search tool of ours to describe the servers: the note does
  const system = settings.nativeSearch && directory?.text ? `${note}\n\n${directory.text}` : note;
  const plan = withReason(
    {
      loaded,
      deferred,
      metaTools,
      system,
      active: true,
      strategy: settings.strategy,
      nativeSearch: settings.nativeSearch,
      stats,
    },
    activation.reason,
  );
  const appended = settings.nativeSearch ? "" : appendedText(basis, settings, counters);
  if (appended) plan.listing = appended;
  if (limit !== undefined) {
    // demoted core tools that a reveal brought back are loaded again, so not dropped
    const dropped = [...basis.demoted.filter((name) => !promoted.has(name)), ...reveals.skipped];
    plan.budget = budgetReport(limit, stats.loadedTokens + stats.metaTokens, dropped);
  }
  return freezePlan(plan);
}

/** Defines `key` as an enumerable getter computing `compute()` once, so JSON, spreads,
 * structuredClone and deep equality see a plain value; it stays readable after freezing. */
function lazyField<T extends object>(target: T, key: keyof T & string, compute: () => unknown) {
  let value: unknown;
  let done = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
  });
}

/** The plan with `reason` as a lazy field: reason text may quote exact token totals. */
function withReason(fields: Omit<TurnPlan, "reason">, reason: () => string): TurnPlan {
  const plan = { ...fields, reason: "" } as TurnPlan;
  lazyField(plan, "reason", reason);
  return plan;
}

function freezePlan(plan: TurnPlan): TurnPlan {
  Object.freeze(plan.loaded);
  Object.freeze(plan.deferred);
  Object.freeze(plan.metaTools);
  Object.freeze(plan.stats);
  if (plan.budget) Object.freeze(Object.freeze(plan.budget).dropped);
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
