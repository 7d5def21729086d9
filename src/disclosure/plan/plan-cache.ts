/**
 * Where a disclosure's plans come from: the basis of the current catalog and visibility (the
 * last one kept), the definitions budget over it, and the plans, cached per (catalog, visibility,
 * the session's reveals, settings) key.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { LRUCache } from "../../internal/index.js";
import type { RevealStore } from "../reveal-store.js";
import type {
  DisclosureOptions,
  MetaToolNames,
  PrepareInput,
  TurnPlan,
  TurnSettings,
} from "../types.js";
import { budgetedBasis } from "./budgeted-basis.js";
import { buildPlanBasis, type PlanBasis } from "./plan-basis.js";
import { type PlanCounters, planTurn } from "./plan-turn.js";
import { resolveSettings } from "./resolve-settings.js";

/** Plans kept per instance: one per live (session reveals, settings) pair, LRU beyond this. */
export const PLAN_CACHE_SIZE = 64;

/** What the plan cache needs from its disclosure. */
export interface PlanCacheParts {
  names: MetaToolNames;
  adapt: ((tool: ToolDefinition) => ToolDefinition) | undefined;
  warn: (message: string) => void;
  counters: PlanCounters;
  store: RevealStore;
}

/** The plan cache of one disclosure: `planFor` a turn, `turnBasis` for calls and checks. */
export function createPlanCache(options: DisclosureOptions, parts: PlanCacheParts) {
  const { names, adapt, warn, counters, store } = parts;
  const warned = new Set<string>();
  const plans = new LRUCache<string, TurnPlan>(PLAN_CACHE_SIZE);
  let lastBasis: { key: string; basis: PlanBasis } | undefined;
  /** Catalog and visibility key, or undefined when one of them cannot be keyed. */
  const stateKey = (): string | undefined => {
    const catalogKey = options.catalogVersion?.() ?? options.catalog.fingerprint?.();
    const visibilityKey = options.isVisible ? options.visibilityVersion?.() : "all";
    if (catalogKey === undefined || visibilityKey === undefined) return undefined;
    return `${catalogKey}\u0000${visibilityKey}`;
  };
  const basisFor = (state: string | undefined, neverDefer: readonly string[] | undefined) => {
    const key =
      state === undefined ? undefined : `${state}\u0000${JSON.stringify(neverDefer ?? [])}`;
    if (key !== undefined && lastBasis?.key === key) return lastBasis.basis;
    const basis = buildPlanBasis(
      options.catalog.list(),
      options.isVisible,
      neverDefer,
      names,
      adapt,
    );
    for (const warning of basis.warnings) {
      if (warned.has(warning)) continue;
      warned.add(warning);
      warn(warning);
    }
    if (key !== undefined) lastBasis = { key, basis };
    return basis;
  };
  // a turn's list adds to the instance's: a pin set at creation never disappears for one turn
  const neverDeferOf = (turn: TurnSettings): readonly string[] | undefined =>
    turn.neverDefer === undefined
      ? options.neverDefer
      : [...(options.neverDefer ?? []), ...turn.neverDefer];
  /** The basis a turn works from, after the definitions budget (the same for every method). */
  const turnBasis = (turn: TurnSettings, settings = resolveSettings(options, turn)) =>
    budgetedBasis(basisFor(stateKey(), neverDeferOf(turn)), settings, counters);

  const planFor = (input: PrepareInput): TurnPlan => {
    const settings = resolveSettings(options, input);
    const state = stateKey();
    const neverDefer = neverDeferOf(input);
    const revealVersion = store.version(input.session);
    const key =
      state === undefined
        ? undefined
        : JSON.stringify([state, revealVersion, settings, neverDefer ?? []]);
    if (key !== undefined) {
      const cached = plans.get(key);
      if (cached) return cached;
    }
    const basis = budgetedBasis(basisFor(state, neverDefer), settings, counters);
    const plan = planTurn(basis, settings, store.revealed(input.session), counters);
    if (key !== undefined) plans.set(key, plan);
    return plan;
  };
  return { planFor, turnBasis, size: () => plans.size };
}
