/**
 * `executeCall`: one model tool call as an explicit list of small steps (in the spirit of
 * hono's `compose`). Each step reads and updates the call's state and may stop the call with an
 * answer; the outcome, however the call ended, goes to `context.record`.
 */

import { errorText } from "../../internal/index.js";
import type { ExecuteInput, ExecuteOutcome } from "../types.js";
import {
  readCallArguments,
  readMetaArguments,
  runBeforeHooks,
  validateCallArguments,
} from "./argument-steps.js";
import {
  type CallState,
  type CallStep,
  type CallStop,
  type ExecuteContext,
  outcomeOf,
  refuse,
} from "./call-state.js";
import { requireName, resolveTool, revealCalled, unwrapBridge } from "./resolve-steps.js";
import { embedQueries, finishResult, runTool } from "./run-steps.js";

export type { ExecuteContext } from "./call-state.js";

/**
 * The steps of every call, in order: unwrap the bridge first so every later step sees the real
 * name; resolve before reveal; validate before the hooks see the arguments; read a meta tool's
 * arguments once, after the hooks, for the embedding step and the handler; the result budget
 * last. A new step (a recorder of search → call pairs, say) goes into this list; one that must
 * see the outcome of every call, stopped or not, goes in `ExecuteContext.record`.
 */
export const CALL_STEPS: readonly CallStep[] = [
  requireName,
  unwrapBridge,
  resolveTool,
  revealCalled,
  readCallArguments,
  validateCallArguments,
  runBeforeHooks,
  readMetaArguments,
  embedQueries,
  runTool,
  finishResult,
];

/** Runs the steps until one stops the call; the last step's result ends it otherwise. */
async function runSteps(state: CallState, steps: readonly CallStep[]): Promise<CallStop> {
  for (const step of steps) {
    // most steps are synchronous: awaiting only the ones that return a promise saves a
    // microtask turn per step on every call
    const returned = step(state);
    const stop = returned instanceof Promise ? await returned : returned;
    if (stop) return stop;
  }
  const result = state.result ?? refuse(`Tool "${state.name}" gave no result.`, "internal").result;
  return { result, ran: true, code: result.isError ? "tool_error" : undefined };
}

/** Executes one model tool call; never throws for anything the model sent. */
export async function executeCall(
  input: ExecuteInput,
  context: ExecuteContext,
): Promise<ExecuteOutcome> {
  const state: CallState = {
    input,
    context,
    name: typeof input?.name === "string" ? input.name : "",
    route: "direct",
    repairs: [],
    revealed: [],
    start: performance.now(),
    rawArguments: input?.arguments,
    isMeta: false,
    arguments: {},
    started: 0,
    timeoutMs: input?.timeoutMs ?? context.options.timeoutMs ?? 60_000,
  };
  let outcome: ExecuteOutcome;
  try {
    outcome = outcomeOf(state, await runSteps(state, CALL_STEPS));
  } catch (error) {
    // the last line of the no-throw promise: a step that threw on hostile input still answers
    const name = typeof input?.name === "string" ? input.name : "";
    const text = `Tool "${name.slice(0, 128)}" could not be processed: ${errorText(error)}. Check the call's arguments, or report this to the host.`;
    const fallback = { ...state, name, route: "direct" as const, repairs: [], revealed: [] };
    outcome = outcomeOf(fallback, refuse(text, "internal"));
  }
  try {
    context.record(outcome);
  } catch {
    // metrics are not worth a throw
  }
  return outcome;
}
