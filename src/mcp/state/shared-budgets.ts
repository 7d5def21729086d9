/**
 * `createSharedBudgets`: a session's loop-total result budget counted across replicas. Each
 * replica keeps the session's tracker (`sift.results`); before a request the tokens other
 * replicas delivered are added to it, and after a call the tokens delivered here are added to
 * the store, so a budget spent on one replica counts on every one.
 */
import type { SessionResultBudgets } from "../../budget/index.js";
import type { SessionStore } from "./session-store.js";

/** The tool name under which other replicas' tokens show in a session's `byTool`. */
export const OTHER_REPLICAS = "(other replicas)";

/** The two moments a session's budget meets the store. */
export interface SharedBudgets {
  /** Adds to the local tracker what the store counts beyond it. */
  hydrate(session: string): Promise<void>;
  /** Adds what this replica delivered since the last sync to the store. */
  flush(session: string): Promise<void>;
  /** Forgets the session's sync point (it ended here). */
  forget(session: string): void;
}

/** Creates the shared budgets over `store` for the trackers in `results`. */
export function createSharedBudgets(
  store: SessionStore,
  results: SessionResultBudgets,
): SharedBudgets {
  // tokens of the local tracker known to be in the store
  const synced = new Map<string, number>();
  const catchUp = (session: string, stored: number) => {
    const tracker = results.session(session);
    if (stored > tracker.used) tracker.record(OTHER_REPLICAS, stored - tracker.used);
    synced.set(session, Math.max(synced.get(session) ?? 0, stored));
  };
  return {
    hydrate: async (session) => catchUp(session, await store.resultTokens(session)),
    flush: async (session) => {
      const used = results.session(session).used;
      const delta = used - (synced.get(session) ?? 0);
      if (delta <= 0) return;
      // set before the write: a call finishing meanwhile sends only what came after
      synced.set(session, used);
      catchUp(session, await store.addResultTokens(session, delta));
    },
    forget: (session) => {
      synced.delete(session);
    },
  };
}
