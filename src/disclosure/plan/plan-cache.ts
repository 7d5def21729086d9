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
  TurnVisibility,
} from "../types.js";
import { budgetedBasis } from "./budgeted-basis.js";
import { buildPlanBasis, type PlanBasis, type PlanCounters } from "./plan-basis.js";
import { planTurn } from "./plan-turn.js";
import { resolveSettings } from "./resolve-settings.js";

/** Plans kept per instance: one per live (session reveals, settings) pair, LRU beyond this. */
export const PLAN_CACHE_SIZE = 64;
/** Plan bases kept: one per (catalog, visibility, pins) state in use; a new catalog replaces
 * them all, so this only bounds how many per-turn visibilities stay warm. */
const BASES_KEPT = 8;

/** What the plan cache needs from its disclosure. */
export interface PlanCacheParts {
  names: MetaToolNames;
  adapt: ((tool: ToolDefinition) => ToolDefinition) | undefined;
  warn: (message: string) => void;
  counters: PlanCounters;
  store: RevealStore;
}

/** Turn settings with the turn's own visibility, if it narrows the instance's. */
type Turn = TurnSettings & { visibility?: TurnVisibility | undefined };

/** The plan cache of one disclosure: `planFor` a turn, `turnBasis` for calls and checks. */
export function createPlanCache(options: DisclosureOptions, parts: PlanCacheParts) {
  const { names, adapt, warn, counters, store } = parts;
  const warned = new Set<string>();
  const plans = new LRUCache<string, TurnPlan>(PLAN_CACHE_SIZE);
  // the last bases, one per visibility a turn narrows to (a gateway's user profiles)
  const bases = new LRUCache<string, PlanBasis>(BASES_KEPT);
  /** Catalog and visibility key, or undefined when one of them cannot be keyed. */
  const stateKey = (turn: Turn): string | undefined => {
    const catalogKey = options.catalogVersion?.() ?? options.catalog.fingerprint?.();
    const visibilityKey = options.isVisible ? options.visibilityVersion?.() : "all";
    if (catalogKey === undefined || visibilityKey === undefined) return undefined;
    const narrowed = turn.visibility === undefined ? "" : `\u0000${turn.visibility.key}`;
    return `${catalogKey}\u0000${visibilityKey}${narrowed}`;
  };
  /** The instance's visibility, narrowed by the turn's. */
  const visibleIn = (turn: Turn) => {
    const own = options.isVisible;
    const narrow = turn.visibility?.isVisible;
    if (narrow === undefined) return own;
    return own === undefined ? narrow : (tool: ToolDefinition) => own(tool) && narrow(tool);
  };
  const basisFor = (
    state: string | undefined,
    turn: Turn,
    neverDefer: readonly string[] | undefined,
  ) => {
    const key =
      state === undefined ? undefined : `${state}\u0000${JSON.stringify(neverDefer ?? [])}`;
    const kept = key === undefined ? undefined : bases.get(key);
    if (kept) return kept;
    const basis = buildPlanBasis(options.catalog.list(), visibleIn(turn), neverDefer, names, adapt);
    for (const warning of basis.warnings) {
      if (warned.has(warning)) continue;
      warned.add(warning);
      warn(warning);
    }
    if (key !== undefined) bases.set(key, basis);
    return basis;
  };
  // a turn's list adds to the instance's: a pin set at creation never disappears for one turn
  const neverDeferOf = (turn: TurnSettings): readonly string[] | undefined =>
    turn.neverDefer === undefined
      ? options.neverDefer
      : [...(options.neverDefer ?? []), ...turn.neverDefer];
  /** The basis a turn works from, after the definitions budget (the same for every method). */
  const turnBasis = (turn: Turn, settings = resolveSettings(options, turn)) =>
    budgetedBasis(basisFor(stateKey(turn), turn, neverDeferOf(turn)), settings, counters);

  const planFor = (input: PrepareInput): TurnPlan => {
    const settings = resolveSettings(options, input);
    const state = stateKey(input);
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
    const basis = budgetedBasis(basisFor(state, input, neverDefer), settings, counters);
    const plan = planTurn(basis, settings, store.revealed(input.session), counters);
    if (key !== undefined) plans.set(key, plan);
    return plan;
  };
  return { planFor, turnBasis, size: () => plans.size };
}
