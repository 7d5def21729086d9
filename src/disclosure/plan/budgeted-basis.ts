import { fitToBudget } from "../../budget/index.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { LRUCache } from "../../internal/index.js";
import { decideActivation } from "./decide-activation.js";
import { byName, nameSample, type PlanBasis, type PlanCounters } from "./plan-basis.js";
import { metaToolsFor, sumTokens } from "./plan-turn.js";
import type { ResolvedSettings } from "./resolved-settings.js";
import { tallyOf } from "./token-tally.js";

const MAX_ROUNDS = 4;
const CACHE_PER_BASIS = 16;
const budgeted = new WeakMap<PlanBasis, LRUCache<string, PlanBasis>>();

/** The basis with `tools` (unpinned core tools) moved to the deferrable side. */
function demote(basis: PlanBasis, tools: readonly ToolDefinition[]): PlanBasis {
  if (tools.length === 0) return basis;
  const names = new Set(tools.map((tool) => tool.name));
  const deferrable = [...basis.deferrable, ...tools].sort(byName);
  return {
    visible: basis.visible,
    core: basis.core.filter((tool) => !names.has(tool.name)),
    deferrable,
    deferrableNames: new Set(deferrable.map((tool) => tool.name)),
    pinned: basis.pinned,
    demoted: [...basis.demoted, ...tools.map((tool) => tool.name)].sort(),
    renamed: basis.renamed,
    warnings: basis.warnings,
  };
}

function activeFor(basis: PlanBasis, settings: ResolvedSettings, counters: PlanCounters) {
  return decideActivation(settings, {
    visible: basis.visible.size,
    deferrable: basis.deferrable.length,
    deferrableTokens: tallyOf(basis.deferrable, counters.definition),
    coreTokens: tallyOf(basis.core, counters.definition),
  }).active;
}

/** Throws `too_many_tools`: the pinned tools and meta tools alone pass the provider's limit. */
function tooManyPinned(basis: PlanBasis, meta: number, limit: number): never {
  throw new ToolsiftError(
    "too_many_tools",
    `${basis.pinned.size} pinned tools (defer: "never" or neverDefer: ${nameSample(basis.pinned)}) plus ${meta} meta tool(s) are more than the provider's limit of ${limit} tools per request, so no request it accepts can be built. Pin at most ${Math.max(0, limit - meta)} tools (remove names from neverDefer, or drop defer: "never"), or hide some with the policy.`,
  );
}

/** The basis with unpinned core tools moved to the deferrable side until meta + core tools fit in
 * the provider's tool limit (`maxTools`); smaller tools stay first, like a definitions budget. */
function limitCount(
  basis: PlanBasis,
  settings: ResolvedSettings,
  counters: PlanCounters,
  limit: number,
): PlanBasis {
  const total = basis.core.length + basis.deferrable.length;
  if (total <= limit && !activeFor(basis, settings, counters)) return basis;
  const meta = metaToolsFor(basis, settings, counters).length;
  if (basis.core.length + meta <= limit) return basis;
  const optional = basis.core.filter((tool) => !basis.pinned.has(tool.name));
  const room = limit - meta - (basis.core.length - optional.length);
  if (room < 0) tooManyPinned(basis, meta, limit);
  const { dropped } = fitToBudget(optional, { maxTokens: room, measure: () => 1 });
  return demote(basis, dropped);
}

function split(
  basis: PlanBasis,
  settings: ResolvedSettings,
  counters: PlanCounters,
  limit: number,
) {
  const core = tallyOf(basis.core, counters.definition);
  const deferrable = tallyOf(basis.deferrable, counters.definition);
  // counted only as far as the budget: at 100k deferrable tools the exact total is not needed
  const coreTokens = core.until(limit);
  if (coreTokens <= limit && coreTokens + deferrable.until(limit - coreTokens) <= limit) {
    // inactive: everything is loaded and fits; active: core and meta tools together may not
    if (!activeFor(basis, settings, counters)) return basis;
  }
  const optional = basis.core.filter((tool) => !basis.pinned.has(tool.name));
  if (optional.length === 0) return basis;
  const pinnedTokens = core.exact() - sumTokens(optional, counters);
  // the meta tools grow with what they cover (the searchable count, the listing), so reserve
  // the most seen and refit until the reservation holds; give up by demoting every optional tool
  let result = basis;
  let reserve = -1;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const meta = sumTokens(metaToolsFor(result, settings, counters), counters);
    if (meta <= reserve) return result;
    reserve = meta;
    const room = Math.max(0, limit - reserve - pinnedTokens);
    result = demote(
      basis,
      fitToBudget(optional, { maxTokens: room, measure: counters.definition }).dropped,
    );
  }
  return demote(basis, optional);
}

/**
 * Applies the definitions budget to a basis: unpinned core tools that do not fit beside the
 * pinned core tools and the meta tools become deferrable (searchable, describable, callable and
 * revealable like MCP tools). Pinned tools never move. Which core tools stay follows
 * `fitToBudget`'s documented order (higher priority, smaller tools, then name). Returns `basis`
 * itself without a budget, in mode `off`, or when everything fits; cached per basis and settings,
 * so `prepare` and `execute` see the same split.
 */
export function budgetedBasis(
  basis: PlanBasis,
  settings: ResolvedSettings,
  counters: PlanCounters,
): PlanBasis {
  const limit = settings.definitionBudget;
  const most = settings.maxTools;
  if ((limit === undefined && most === undefined) || settings.mode === "off") return basis;
  let perBasis = budgeted.get(basis);
  if (!perBasis) {
    perBasis = new LRUCache(CACHE_PER_BASIS);
    budgeted.set(basis, perBasis);
  }
  const key = JSON.stringify(settings);
  let result = perBasis.get(key);
  if (!result) {
    result = limit === undefined ? basis : split(basis, settings, counters, limit);
    if (most !== undefined) result = limitCount(result, settings, counters, most);
    perBasis.set(key, result);
  }
  return result;
}
