/**
 * The call's last step, budgeting the result, and the spill reader that pages a cut result back
 * to the model. Both live with the call, which applies them; the facade only wires in the
 * settings, the per-session trackers and the token counter.
 */
import {
  type ApplyResultBudgetOptions,
  applyResultBudget,
  type ResultSummarizer,
  type SessionResultBudgets,
  type SpillStore,
  spillReadToolDefinition,
} from "../../budget/index.js";
import type { ToolDefinition, ToolResult } from "../../catalog/index.js";
import type { BudgetResult } from "../types.js";

/** The result budget's settings (the facade's `budget` options, tokens). */
export interface ResultBudgetSettings {
  /** Most tokens one tool result may take when the tool sets no `maxResultTokens`; default 2,000. */
  perToolResult?: number;
  summarize?: ResultSummarizer;
  summarizeThreshold?: number;
  spill?: SpillStore;
}

const DEFAULT_RESULT_TOKENS = 2_000;

/** Tokens of one page of a spilled result: a page plus its small envelope and footer must fit the
 * result budget, or the page itself would be cut. */
function spillPageTokens(resultLimit: number): number {
  return Math.max(50, resultLimit - 60);
}

/** The budget step's function: each result within its tool's limit and its session's total. */
export function createResultBudget(
  settings: ResultBudgetSettings,
  parts: { results: SessionResultBudgets; counter: ApplyResultBudgetOptions["counter"] },
): BudgetResult {
  const { perToolResult, summarize, summarizeThreshold, spill } = settings;
  return async (result, tool, context) => {
    const applied = await applyResultBudget(result, {
      tool,
      ...(context?.deadline !== undefined ? { deadline: context.deadline } : {}),
      ...(context?.onBudgetHit ? { onBudgetHit: context.onBudgetHit } : {}),
      tracker: parts.results.session(context?.session ?? ""),
      ...(parts.counter ? { counter: parts.counter } : {}),
      ...(perToolResult !== undefined ? { perToolResult } : {}),
      ...(summarize ? { summarize } : {}),
      ...(summarizeThreshold !== undefined ? { summarizeThreshold } : {}),
      ...(spill
        ? {
            spill,
            spillPageTokens: spillPageTokens(perToolResult ?? DEFAULT_RESULT_TOKENS),
            session: context?.session ?? "",
          }
        : {}),
    });
    context?.onApplied?.({
      tokensBefore: applied.originalTokens,
      tokensAfter: applied.tokens,
      limit: applied.limit,
      truncated: applied.truncated,
      summarized: applied.summarized,
      spilled: applied.spillId !== undefined,
    });
    return applied.value as ToolResult;
  };
}

/** The tool through which the model pages a spilled result. Each page but the last ends with a
 * line naming the next page, since many providers send only the text. */
export function spillReader(store: SpillStore, perToolResult?: number): ToolDefinition {
  const resultLimit = perToolResult ?? DEFAULT_RESULT_TOKENS;
  const pageTokens = spillPageTokens(resultLimit);
  return {
    ...spillReadToolDefinition,
    // the model needs it as soon as a result is cut, so it is never hidden behind search
    core: true,
    maxResultTokens: resultLimit,
    handler: (args, context) => {
      const page = store.read(String(args.id), {
        page: Number(args.page ?? 1),
        pageTokens,
        session: context.session,
      });
      if (!page) {
        const text = `No stored result "${String(args.id)}" in this session: it expired or never existed.`;
        return { content: [{ type: "text", text }], isError: true };
      }
      const more = page.done
        ? ""
        : `\n[page ${page.page} of about ${page.pages}: read page ${page.page + 1} for more]`;
      return {
        content: [{ type: "text", text: `${page.text}${more}` }],
        structuredContent: { id: page.id, page: page.page, pages: page.pages, done: page.done },
      };
    },
  };
}
