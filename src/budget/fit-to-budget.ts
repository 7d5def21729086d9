/** `fitToBudget`: chooses which tool definitions stay loaded under a token budget. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import type { TokenCounter } from "../tokens/index.js";
import { o200kCounter } from "../tokens/index.js";

/** Options of `fitToBudget`. */
export interface FitToBudgetOptions {
  /** Token budget for the kept definitions. */
  maxTokens: number;
  /** Default `o200kCounter`; used by the default `measure`. */
  counter?: TokenCounter;
  /** Higher numbers are kept first; default 0 for every tool. */
  priority?: (tool: ToolDefinition) => number;
  /** Tokens one definition costs; default: the counter over `{name, description, inputSchema}` JSON. */
  measure?: (tool: ToolDefinition) => number;
}

/** The outcome of `fitToBudget`; `kept` and `dropped` keep the input order. */
export interface FitToBudgetResult {
  kept: ToolDefinition[];
  /** Tools that did not fit; disclosure defers them. */
  dropped: ToolDefinition[];
  /** Tokens of the kept tools. */
  tokens: number;
  /** Tools with `defer: "never"` that still did not fit (the budget is below their total). */
  overBudgetNeverDefer: string[];
}

/** Tokens a tool definition costs as a provider sees it: its name, description and schema as JSON. */
export function measureDefinition(
  tool: ToolDefinition,
  counter: TokenCounter = o200kCounter,
): number {
  return counter.count(
    JSON.stringify({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }),
  );
}

/**
 * Keeps as many tool definitions as fit in `maxTokens`. Keep order (deterministic): tools with
 * `defer: "never"` first, then higher `priority`, then smaller tools (more tools per token),
 * then name. Tools are taken greedily in that order; one that does not fit is skipped and later
 * smaller ones may still fit. Tools with `defer: "always"` are always dropped.
 */
export function fitToBudget(
  tools: readonly ToolDefinition[],
  options: FitToBudgetOptions,
): FitToBudgetResult {
  if (!Number.isFinite(options.maxTokens) || options.maxTokens < 0) {
    throw new ToolsiftError(
      "invalid_option",
      `fitToBudget: maxTokens must be a number ≥ 0, got ${String(options.maxTokens)}. Pass the definitions budget in tokens.`,
    );
  }
  const counter = options.counter ?? o200kCounter;
  const measure = options.measure ?? ((tool: ToolDefinition) => measureDefinition(tool, counter));
  const priority = options.priority ?? (() => 0);
  const ranked = tools.map((tool, index) => ({
    tool,
    index,
    never: tool.defer === "never",
    priority: priority(tool),
    size: measure(tool),
  }));
  const order = [...ranked].sort(
    (a, b) =>
      Number(b.never) - Number(a.never) ||
      b.priority - a.priority ||
      a.size - b.size ||
      (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : a.index - b.index),
  );
  const keep = new Set<number>();
  const overBudgetNeverDefer: string[] = [];
  let tokens = 0;
  for (const entry of order) {
    if (entry.tool.defer === "always") continue;
    if (tokens + entry.size <= options.maxTokens) {
      keep.add(entry.index);
      tokens += entry.size;
    } else if (entry.never) overBudgetNeverDefer.push(entry.tool.name);
  }
  const kept = ranked.filter((entry) => keep.has(entry.index)).map((entry) => entry.tool);
  const dropped = ranked.filter((entry) => !keep.has(entry.index)).map((entry) => entry.tool);
  return { kept, dropped, tokens, overBudgetNeverDefer };
}
