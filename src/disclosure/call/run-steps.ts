/**
 * The call's last steps: embed a search's queries, run the tool (a meta handler, the tool's
 * handler or the host's dispatcher), then the after-hooks and the result budget, under one time
 * limit.
 */
import type { ToolDefinition, ToolHandler, ToolResult } from "../../catalog/index.js";
import { beforeDeadline, errorText } from "../../internal/index.js";
import type { DescribeArguments, SearchArguments } from "../meta/meta-arguments.js";
import { runDescribe, runSearch } from "../meta/meta-handlers.js";
import type { BudgetFacts, BudgetResult, CallDispatcher, CallRoute } from "../types.js";
import { hookEvent } from "./argument-steps.js";
import { type CallState, type CallStop, refuse, toolOf } from "./call-state.js";
import { errorResult, runHandler, toToolResult } from "./run-handler.js";

// Node fires a timer beyond its range after 1 ms: such limits mean none
const MAX_TIMER_MS = 2 ** 31 - 1;
// time after the deadline for the budget layer's bounded truncation of a result whose
// summariser it abandoned at the deadline
const FINISH_GRACE_MS = 250;

/** With an embedder, a search is hybrid: the queries it runs are embedded first. A timed search
 * phase starts here, so it includes the embedding. */
export async function embedQueries(state: CallState): Promise<undefined> {
  const { options, settings } = state.context;
  if (state.isMeta && state.tool?.name === settings.names.search) {
    state.endSearch = state.input.onPhase?.("search");
  }
  const embed = options.embedQueries;
  const args = state.metaArguments;
  if (!embed || !args || !("queries" in args) || args.queries.length === 0) return undefined;
  try {
    await embed(args.queries);
  } catch (error) {
    state.endSearch?.();
    throw error;
  }
  return undefined;
}

/** Runs the search or describe meta tool from the plan; reveal mode reveals what a search found. */
function runMeta(state: CallState, tool: ToolDefinition): void {
  const { settings, store } = state.context;
  const meta = state.context.meta();
  const search = tool.name === settings.names.search;
  let answer: ReturnType<typeof runSearch>;
  try {
    answer = search
      ? runSearch(state.metaArguments as SearchArguments, meta)
      : runDescribe(state.metaArguments as DescribeArguments, meta);
  } catch (error) {
    state.endSearch?.();
    throw error;
  }
  state.repairs.push(...answer.repairs);
  if (settings.strategy === "reveal" && answer.found.length > 0) {
    state.revealed.push(...store.reveal(state.input.session, answer.found));
  }
  state.result = answer.result;
  const queries = (state.metaArguments as Partial<SearchArguments> | undefined)?.queries ?? [];
  state.endSearch?.({
    phase: "search",
    queries: queries.length,
    results: answer.found.length,
    revealed: state.revealed.length,
  });
}

function deadlineOf(state: CallState): number | undefined {
  return state.timeoutMs <= MAX_TIMER_MS ? state.started + state.timeoutMs : undefined;
}

/** Runs the tool: a meta tool answers from the plan, others through their handler. */
export async function runTool(state: CallState): Promise<CallStop | undefined> {
  const { options } = state.context;
  const tool = toolOf(state);
  state.started = performance.now();
  if (state.isMeta) {
    runMeta(state, tool);
    return undefined;
  }
  if (!tool.handler && !options.onCall) {
    return refuse(`Tool "${tool.name}" cannot run here: it has no handler.`, "no_handler");
  }
  const { input } = state;
  state.result = await runHandler(
    tool.name,
    tool.handler ?? dispatchTo(options.onCall as CallDispatcher, tool, state.route),
    state.arguments,
    input.session,
    state.timeoutMs,
    input.signal,
    {
      upstreamName: tool.upstreamName ?? tool.name,
      ...(input.host !== undefined ? { host: input.host } : {}),
    },
  );
  return undefined;
}

/** After-hooks, then the result budget (meta results are not budgeted: a cut schema is worse
 * than none, and search has its own budget). */
async function afterHandler(state: CallState, handled: ToolResult): Promise<ToolResult> {
  const { options } = state.context;
  const durationMs = performance.now() - state.started;
  const event = hookEvent(state);
  let value = handled;
  for (const hook of options.hooks?.after ?? []) {
    const replaced = await hook({ ...event, result: value, durationMs });
    // a hook written in plain JavaScript may return any value: normalise it like a handler's
    if (replaced !== undefined) value = toToolResult(replaced);
  }
  if (!state.isMeta && options.budgetResult)
    value = await budgeted(state, options.budgetResult, value);
  return value;
}

/** The result through the budget, timed as the `budget` phase when the caller asked. */
async function budgeted(state: CallState, budget: BudgetResult, value: ToolResult) {
  const deadline = deadlineOf(state);
  const { session, onBudgetHit, onPhase } = state.input;
  const end = onPhase?.("budget");
  let applied: BudgetFacts | undefined;
  let budgetedValue: ToolResult;
  try {
    budgetedValue = await budget(value, toolOf(state), {
      session,
      ...(deadline !== undefined ? { deadline } : {}),
      ...(onBudgetHit ? { onBudgetHit } : {}),
      ...(end
        ? {
            onApplied: (facts: BudgetFacts) => {
              applied = facts;
            },
          }
        : {}),
    });
  } catch (error) {
    end?.();
    throw error;
  }
  // a host's own budget function may report nothing: the phase still ends, without figures
  end?.({ phase: "budget", ...applied });
  return budgetedValue;
}

/** Runs the after-hooks and the budget within the call's time limit. */
export async function finishResult(state: CallState): Promise<CallStop | undefined> {
  const tool = toolOf(state);
  const handled = state.result ?? errorResult(`Tool "${tool.name}" gave no result.`);
  const deadline = deadlineOf(state);
  try {
    // the budget layer gives up on a slow summariser at the deadline and truncates instead (a
    // bounded cut, kept with its spill note); past a grace for that cut, the call stops waiting
    const finished =
      deadline === undefined
        ? await afterHandler(state, handled)
        : await beforeDeadline(afterHandler(state, handled), deadline + FINISH_GRACE_MS);
    if (finished === undefined) {
      const text = `Tool "${tool.name}" ran, but its result could not be processed within the call's time limit of ${state.timeoutMs} ms (a result hook or the result budget did not finish). Try a smaller request, or raise timeoutMs.`;
      return { result: errorResult(text), ran: true, code: "timeout" };
    }
    state.result = finished;
  } catch (error) {
    const text = `Tool "${tool.name}" ran, but its result could not be processed (${errorText(error)}).`;
    return { result: errorResult(text), ran: true, code: "hook_failed" };
  }
  return undefined;
}

/** A handler that hands the call to the host's dispatcher, with the real tool and route. */
function dispatchTo(onCall: CallDispatcher, tool: ToolDefinition, route: CallRoute): ToolHandler {
  return (args, context) =>
    onCall({
      tool,
      name: tool.name,
      upstreamName: tool.upstreamName ?? tool.name,
      arguments: args,
      session: context.session,
      signal: context.signal ?? new AbortController().signal,
      route,
    });
}
