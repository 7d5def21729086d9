/**
 * `createSessionResultBudgets`: the loop-total result budget kept per session. One instance serves
 * many conversations (a gateway's clients, a chat server's users); a single shared total let one
 * session's large results starve the others, and one session's new loop reset everyone's count.
 */

import { ToolsiftError } from "../errors.js";
import { LRUCache } from "../internal/index.js";
import {
  createResultBudgetTracker,
  type ResultBudgetSnapshot,
  type ResultBudgetTracker,
  type ResultBudgetTrackerOptions,
} from "./result-budget-tracker.js";

/** Sessions whose loop budgets are kept; the least recently used one past this starts afresh. */
export const MAX_BUDGET_SESSIONS = 1_000;

/** The loop-total result budgets of every session. */
export interface SessionResultBudgets {
  /** The budget of one session's current agent loop, created on first use. */
  session(id: string): ResultBudgetTracker;
  /** Tokens of results delivered in every session's current loop. */
  readonly used: number;
  /** Starts a new agent loop for `session`, or for every session when none is named. */
  reset(session?: string): void;
  /**
   * One session's state, or the sum over every session (then `remaining` is the configured total
   * less the most any one session used, the room the fullest session has left).
   */
  snapshot(session?: string): ResultBudgetSnapshot;
}

/** Options of `createSessionResultBudgets`: each session gets `totalResults` (default 8,000). */
export function createSessionResultBudgets(
  options: ResultBudgetTrackerOptions = {},
): SessionResultBudgets {
  // validates the options once, and is the empty state snapshots start from
  const empty = createResultBudgetTracker(options);
  const sessions = new LRUCache<string, ResultBudgetTracker>(MAX_BUDGET_SESSIONS);
  const trackerOf = (id: string) => {
    if (typeof id !== "string") {
      throw new ToolsiftError(
        "invalid_option",
        `results.session(id) needs a session id string, got ${typeof id}.`,
      );
    }
    let tracker = sessions.get(id);
    if (tracker === undefined) {
      tracker = createResultBudgetTracker(options);
      sessions.set(id, tracker);
    }
    return tracker;
  };
  return {
    session: trackerOf,
    get used() {
      let used = 0;
      for (const tracker of sessions.values()) used += tracker.used;
      return used;
    },
    reset(session) {
      if (session === undefined) sessions.clear();
      else sessions.delete(session);
    },
    snapshot(session) {
      if (session !== undefined) return (sessions.get(session) ?? empty).snapshot();
      const sum: ResultBudgetSnapshot = { ...empty.snapshot(), byTool: Object.create(null) };
      let most = 0;
      for (const tracker of sessions.values()) {
        const one = tracker.snapshot();
        sum.used += one.used;
        sum.calls += one.calls;
        most = Math.max(most, one.used);
        for (const [tool, tokens] of Object.entries(one.byTool)) {
          sum.byTool[tool] = (sum.byTool[tool] ?? 0) + tokens;
        }
      }
      sum.remaining = Math.max(0, sum.total - most);
      return sum;
    },
  };
}
