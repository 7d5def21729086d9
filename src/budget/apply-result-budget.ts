/** `applyResultBudget`: what dispatch calls on every tool result before the model sees it. */

import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import { beforeDeadline, errorText } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { o200kCounter } from "../tokens/index.js";
import type { BudgetHit, ResultBudgetTracker } from "./result-budget-tracker.js";
import type { SpillStore } from "./spill-store.js";
import { spillReadToolDefinition } from "./spill-store.js";
import type { TruncateOptions } from "./truncate-result.js";
import { truncateResult } from "./truncate-result.js";
import type { Truncation } from "./truncate-text-value.js";
import { isToolResult } from "./truncate-text-value.js";

/** Turns a large result into a shorter one (often with a small model); its output is budgeted too. */
export type ResultSummarizer = (
  result: unknown,
  context: { tool: string; tokens: number; limit: number },
) => Promise<string | ToolResult>;

/** Options of `applyResultBudget`. */
export interface ApplyResultBudgetOptions {
  tool: Pick<ToolDefinition, "name" | "maxResultTokens" | "truncation">;
  tracker?: ResultBudgetTracker;
  /** Per-result limit when the tool sets no `maxResultTokens`; default 2,000 tokens. */
  perToolResult?: number;
  counter?: TokenCounter;
  mediaTokens?: TruncateOptions["mediaTokens"];
  summarize?: ResultSummarizer;
  /** Results of at least this many tokens go to `summarize`; default: any result over the limit. */
  summarizeThreshold?: number;
  /** Keeps the full result of every cut, and the note tells the model how to page through it. */
  spill?: SpillStore;
  /** Page size the model will read `spill` with, for the page count in the note; default the
   * store's `pageTokens`. */
  spillPageTokens?: number;
  /** The session the result is spilled for; only it may read the result back. Default "". */
  session?: string;
  /** This call's own listener for a cut, told before the tracker's (`ExecuteInput.onBudgetHit`). */
  onBudgetHit?: (hit: BudgetHit) => void;
  /** When the call's time limit ends (a `performance.now()` time): a summariser still running
   * then is abandoned and the result is truncated instead, with a note; none without it. */
  deadline?: number;
}

/** The budgeted result and what happened to it. */
export interface AppliedResultBudget extends Truncation {
  /** The limit applied: `min(tool.maxResultTokens ?? perToolResult, tracker.remaining)`. */
  limit: number;
  summarized: boolean;
  spillId?: string;
}

/**
 * The result summarised and fitted to `room` when a summariser is set and the result reaches its
 * threshold; undefined otherwise, or when it failed or ran past the deadline (the reason goes to
 * `notes`, and the caller truncates instead).
 */
async function trySummary(
  result: unknown,
  options: ApplyResultBudgetOptions,
  fit: {
    base: Omit<TruncateOptions, "maxTokens">;
    limit: number;
    room: number;
    first: Truncation;
  },
  notes: string[],
): Promise<Truncation | undefined> {
  const { base, limit, room, first } = fit;
  const threshold = options.summarizeThreshold ?? limit + 1;
  if (!options.summarize || first.originalTokens < threshold) return undefined;
  try {
    const summarizing = Promise.resolve(
      options.summarize(result, { tool: options.tool.name, tokens: first.originalTokens, limit }),
    );
    // a summariser is often a model call: it must not keep the tool call past its time limit
    const summary =
      options.deadline === undefined
        ? await summarizing
        : await beforeDeadline(summarizing, options.deadline);
    if (summary === undefined) throw new Error("it did not finish within the call's time limit");
    const outcome = truncateResult(sameShape(summary, result), { ...base, maxTokens: room });
    notes.push(
      `summarised ${first.originalTokens} tokens into ${outcome.tokens}`,
      ...outcome.notes,
    );
    return outcome;
  } catch (error) {
    notes.push(`summariser failed (${errorText(error)}); truncated instead`);
    return undefined;
  }
}

/**
 * Applies the per-result and loop-total budgets to one result: fits it unchanged when it can,
 * else summarises (if a summariser is given and the result passes the threshold) or truncates
 * with the tool's strategy, stores the full result in `spill` and records the tokens.
 * Non-string, non-MCP values that need a note become an MCP result with text blocks.
 */
export async function applyResultBudget(
  result: unknown,
  options: ApplyResultBudgetOptions,
): Promise<AppliedResultBudget> {
  const { tool, tracker } = options;
  const counter = options.counter ?? o200kCounter;
  const perTool = tool.maxResultTokens ?? options.perToolResult ?? 2_000;
  const limit = tracker ? tracker.limitFor(perTool) : perTool;
  const base = {
    counter,
    ...(tool.truncation ? { strategy: tool.truncation } : {}),
    ...(options.mediaTokens ? { mediaTokens: options.mediaTokens } : {}),
  };
  const first = truncateResult(result, { ...base, maxTokens: Math.max(1, limit) });
  if (!first.truncated && first.tokens <= limit) {
    tracker?.record(tool.name, first.tokens);
    return { ...first, limit, summarized: false };
  }
  const hit: BudgetHit = {
    kind: limit < perTool ? "total" : "perResult",
    tool: tool.name,
    tokens: first.originalTokens,
    limit,
  };
  options.onBudgetHit?.(hit);
  tracker?.hit(hit);
  const notes: string[] = [];
  const spillId = options.spill?.put(result, { session: options.session ?? "" });
  const spillNote = spillId
    ? spillMessage(
        spillId,
        options.spillPageTokens ?? (options.spill as SpillStore).pageTokens,
        first.originalTokens,
      )
    : "";
  const room = Math.max(1, limit - (spillNote ? counter.count(spillNote) + 2 : 0));
  let outcome = await trySummary(result, options, { base, limit, room, first }, notes);
  const summarized = outcome !== undefined;
  if (!outcome) {
    outcome = room === limit ? first : truncateResult(result, { ...base, maxTokens: room });
    notes.push(...outcome.notes);
  }
  let value = outcome.value;
  let tokens = outcome.tokens;
  if (spillNote) {
    value = appendNote(value, spillNote);
    tokens += counter.count(spillNote) + 1;
    notes.push(`full result stored as ${spillId}`);
  }
  tracker?.record(tool.name, tokens);
  return {
    ...outcome,
    value,
    tokens,
    notes,
    limit,
    summarized,
    truncated: true,
    originalTokens: first.originalTokens,
    originalExact: first.originalExact,
    ...(spillId ? { spillId } : {}),
  };
}

/** A string summary of an MCP result, as an MCP result: callers read `content`, not a string. */
function sameShape(summary: string | ToolResult, original: unknown): string | ToolResult {
  if (typeof summary !== "string" || !isToolResult(original)) return summary;
  const wrapped: ToolResult = { content: [{ type: "text", text: summary }] };
  if (original.isError !== undefined) wrapped.isError = original.isError;
  return wrapped;
}

function spillMessage(id: string, pageTokens: number, tokens: number): string {
  const pages = Math.max(1, Math.ceil(tokens / pageTokens));
  return `[Full result (${tokens} tokens) stored as ${id}: ${pages} page(s) of ${pageTokens} tokens. Call ${spillReadToolDefinition.name} with {"id": "${id}", "page": 1} to read it.]`;
}

function appendNote(value: unknown, note: string): unknown {
  if (typeof value === "string") return `${value}\n${note}`;
  if (isToolResult(value))
    return { ...value, content: [...value.content, { type: "text", text: note }] };
  return {
    content: [
      { type: "text", text: JSON.stringify(value) },
      { type: "text", text: note },
    ],
  };
}
