/** `createResultBudgetTracker`: tracks tokens spent on tool results across one agent loop. */

import { ToolsiftError } from "../errors.js";
import { recordOf } from "../internal/index.js";

/** A budget limit was reached: one result was cut (`perResult`) or the loop total ran out (`total`). */
export interface BudgetHit {
  kind: "perResult" | "total";
  tool: string;
  /** Tokens the result had before cutting. */
  tokens: number;
  /** The limit that applied. */
  limit: number;
}

/** A point-in-time copy of the tracker's state. */
export interface ResultBudgetSnapshot {
  used: number;
  remaining: number;
  total: number;
  /** Tokens recorded per tool name (an object without prototype: any name is an own key). */
  byTool: Record<string, number>;
  calls: number;
}

/** Counts result tokens against a loop-wide total. */
export interface ResultBudgetTracker {
  /** Records a delivered result of `tokens` tokens. */
  record(toolName: string, tokens: number): void;
  readonly used: number;
  /** Tokens left in the total (never below 0). */
  readonly remaining: number;
  readonly total: number;
  /** The per-result limit to apply now: `min(perTool, remaining)`. */
  limitFor(perTool: number): number;
  /** Reports a hit to `onBudgetHit`. */
  hit(event: BudgetHit): void;
  reset(): void;
  snapshot(): ResultBudgetSnapshot;
}

/** Options of `createResultBudgetTracker`. */
export interface ResultBudgetTrackerOptions {
  /** Total result tokens for the loop; default 8,000. */
  totalResults?: number;
  onBudgetHit?: (event: BudgetHit) => void;
}

/** Creates a tracker; `totalResults` defaults to 8,000 tokens. */
export function createResultBudgetTracker(
  options: ResultBudgetTrackerOptions = {},
): ResultBudgetTracker {
  const total = options.totalResults ?? 8_000;
  if (!Number.isFinite(total) || total < 0) {
    throw new ToolsiftError(
      "invalid_option",
      `createResultBudgetTracker: totalResults must be a number ≥ 0, got ${String(total)}.`,
    );
  }
  let used = 0;
  let calls = 0;
  // a Map, not an object: a tool named "__proto__" or "constructor" is counted like any other
  const byTool = new Map<string, number>();
  return {
    record(toolName, tokens) {
      if (!Number.isFinite(tokens) || tokens < 0) {
        throw new ToolsiftError(
          "invalid_option",
          `record("${toolName}"): tokens must be ≥ 0, got ${String(tokens)}.`,
        );
      }
      used += tokens;
      calls += 1;
      byTool.set(toolName, (byTool.get(toolName) ?? 0) + tokens);
    },
    get used() {
      return used;
    },
    get remaining() {
      return Math.max(0, total - used);
    },
    total,
    limitFor(perTool) {
      return Math.min(perTool, Math.max(0, total - used));
    },
    hit(event) {
      options.onBudgetHit?.(event);
    },
    reset() {
      used = 0;
      calls = 0;
      byTool.clear();
    },
    snapshot() {
      const perTool = recordOf(byTool);
      return { used, remaining: Math.max(0, total - used), total, byTool: perTool, calls };
    },
  };
}
