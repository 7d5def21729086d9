/**
 * React hooks over a ToolSift instance. Each reads the instance through `useSyncExternalStore`
 * on `sift.subscribe`/`sift.version`, so a component re-renders after a call, a reveal, a policy
 * or catalog change, and derived values are recomputed only when the version moves. The server
 * snapshot is the same version, so the hooks render with `react-dom/server` as they do in a
 * browser.
 */

import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { ResultBudgetSnapshot } from "../../budget/index.js";
import type { ToolSift } from "../../create-toolsift.js";
import type { TurnPlan, TurnSettings } from "../../disclosure/index.js";
import { isToolsiftError, type ToolsiftError } from "../../errors.js";
import type { ProfileInfo } from "../../policy/index.js";
import type { SearchOptions, SearchResult } from "../../search/index.js";

/** The instance's change counter; the component re-renders whenever it moves. */
export function useToolSiftVersion(sift: ToolSift): number {
  const version = useCallback(() => sift.version, [sift]);
  return useSyncExternalStore(sift.subscribe, version, version);
}

/** What `useToolSearch` returns: the result, or the error a malformed query raised. */
export interface ToolSearchState {
  /** Undefined for an empty query or when the query failed. */
  result: SearchResult | undefined;
  /** A `ToolsiftError` for a query the engine rejects (a bad regex, say), to show inline. */
  error: ToolsiftError | undefined;
}

/**
 * Searches the tools the policy lets through, as the model's `tool_search` does (lexically).
 * An empty query gives no result. Pass a stable `options.filter` (a changed function re-runs).
 */
export function useToolSearch(
  sift: ToolSift,
  query: string,
  options: SearchOptions = {},
): ToolSearchState {
  const version = useToolSiftVersion(sift);
  const { limit, mode, explain, cut, filter } = options;
  return useMemo(() => {
    void version; // the search reads the live catalog and policy: recompute when they change
    if (query.trim() === "") return { result: undefined, error: undefined };
    const searchOptions: SearchOptions = {
      ...(limit !== undefined ? { limit } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(explain !== undefined ? { explain } : {}),
      ...(cut !== undefined ? { cut } : {}),
      ...(filter ? { filter } : {}),
    };
    try {
      return { result: sift.search(query, searchOptions), error: undefined };
    } catch (error) {
      if (isToolsiftError(error)) return { result: undefined, error };
      throw error;
    }
  }, [sift, version, query, limit, mode, explain, cut, filter]);
}

/** What `useToolProfile` returns. */
export interface ToolProfileState {
  /** The active profile's name. */
  profile: string;
  /** Every registered profile, sorted by name. */
  profiles: readonly ProfileInfo[];
  /** Switches the profile; throws `invalid_option` naming the known ones for an unknown name. */
  setProfile(name: string): void;
}

/** The active policy profile, the ones to choose from, and a setter. */
export function useToolProfile(sift: ToolSift): ToolProfileState {
  const version = useToolSiftVersion(sift);
  const setProfile = useCallback((name: string) => sift.policy.setProfile(name), [sift]);
  return useMemo(() => {
    void version;
    return { profile: sift.policy.profile, profiles: sift.policy.profiles(), setProfile };
  }, [sift, version, setProfile]);
}

/** Result tokens of a session's current agent loop (or summed over every session when none is
 * named): used, remaining, total, per tool, calls. */
export function useToolBudget(sift: ToolSift, session?: string): ResultBudgetSnapshot {
  const version = useToolSiftVersion(sift);
  return useMemo(() => {
    void version;
    return sift.results.snapshot(session);
  }, [sift, version, session]);
}

/** What a session's page shows: its plan and the tools revealed to it, oldest first. */
export interface SessionToolsState {
  plan: TurnPlan;
  revealed: readonly string[];
}

/**
 * The tools a session sees this turn (`sift.prepare`): loaded, deferred, meta tools and figures.
 * `settings` are turn settings (`contextWindow`, `mode`…); they are compared by value.
 */
export function useSessionTools(
  sift: ToolSift,
  session: string,
  settings: TurnSettings = {},
): SessionToolsState {
  const version = useToolSiftVersion(sift);
  const settingsKey = JSON.stringify(settings);
  // biome-ignore lint/correctness/useExhaustiveDependencies: settings are compared by their JSON
  return useMemo(() => {
    void version;
    const plan = sift.prepare({ ...settings, session });
    return { plan, revealed: sift.disclosure.store.revealed(session) };
  }, [sift, version, session, settingsKey]);
}
