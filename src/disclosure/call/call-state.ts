/**
 * The state one call carries through the steps of `executeCall`, and how a step stops it.
 * A step reads and updates the state; returning a `CallStop` ends the call with that answer.
 */
import type { ToolDefinition, ToolResult } from "../../catalog/index.js";
import type { DescribeArguments, SearchArguments } from "../meta/meta-arguments.js";
import type { MetaContext } from "../meta/meta-handlers.js";
import type { PlanBasis } from "../plan/plan-basis.js";
import type { ResolvedSettings } from "../plan/resolved-settings.js";
import type { RevealStore } from "../reveal-store.js";
import type {
  CallPhaseFacts,
  CallRoute,
  DisclosureOptions,
  ExecuteInput,
  ExecuteOutcome,
} from "../types.js";
import { errorResult } from "./run-handler.js";

/** What `executeCall` reads from its disclosure. */
export interface ExecuteContext {
  options: DisclosureOptions;
  settings: ResolvedSettings;
  basis: PlanBasis;
  store: RevealStore;
  /** What the meta tools read (built when first asked: plain tool calls never ask). */
  meta: () => MetaContext;
  /** Meta tools the current plan offers; others answer like unknown tools and change nothing.
   * Built when first asked: only a call of a meta tool's name needs the plan. */
  offered: () => ReadonlySet<string>;
  /** Sees every outcome, whichever step ended the call (metrics; a recorder may hook in here). */
  record: (outcome: ExecuteOutcome) => void;
}

/** One call on its way through the steps; each step fills in what it learns. */
export interface CallState {
  readonly input: ExecuteInput;
  readonly context: ExecuteContext;
  /** The real tool's name (the bridge's target once unwrapped). */
  name: string;
  route: CallRoute;
  repairs: string[];
  revealed: string[];
  readonly start: number;
  /** Arguments as the model sent them for the real tool (the bridge's inner ones). */
  rawArguments: unknown;
  /** The tool, once resolved (a meta tool's own definition for meta calls). */
  tool?: ToolDefinition | undefined;
  isMeta: boolean;
  /** Arguments as read, repaired and validated; before-hooks may replace them. */
  arguments: { [key: string]: unknown };
  /** A meta tool's arguments, read once for the embedding step and the handler. */
  metaArguments?: SearchArguments | DescribeArguments;
  /** When the handler started (performance.now()), and the call's time limit. */
  started: number;
  timeoutMs: number;
  /** Ends a timed search phase (`ExecuteInput.onPhase`), started before the queries are
   * embedded and ended once the search answered. */
  endSearch?: ((facts?: CallPhaseFacts) => void) | undefined;
  /** The handler's result, then as after-hooks and the budget leave it. */
  result?: ToolResult | undefined;
}

/** How a step ends the call early: the answer, whether the handler ran, and why. */
export interface CallStop {
  result: ToolResult;
  ran: boolean;
  code: string | undefined;
}

/** One step of a call: returns a stop to end the call, or nothing to go on. */
export type CallStep = (state: CallState) => CallStop | undefined | Promise<CallStop | undefined>;

/** A stop with an error text that the handler never reached. */
export function refuse(text: string, code: string): CallStop {
  return { result: errorResult(text), ran: false, code };
}

/** The resolved tool; a step placed before the resolve step has a bug, so this throws. */
export function toolOf(state: CallState): ToolDefinition {
  if (!state.tool) throw new Error(`the tool of "${state.name}" is read before it is resolved`);
  return state.tool;
}

/** The outcome of a call from its state and the answer it ends with. */
export function outcomeOf(state: CallState, stop: CallStop): ExecuteOutcome {
  const outcome: ExecuteOutcome = {
    ...stop.result,
    tool: state.name,
    route: state.route,
    ran: stop.ran,
    revealed: state.revealed,
    repairs: state.repairs,
    durationMs: Math.round((performance.now() - state.start) * 1000) / 1000,
  };
  if (stop.code !== undefined) outcome.errorCode = stop.code;
  return outcome;
}
