import type { ToolDefinition, ToolHandler, ToolResult } from "../catalog/index.js";
import { beforeDeadline, errorText } from "../internal/index.js";
import {
  type MetaAnswer,
  type MetaContext,
  runDescribe,
  runSearch,
  unknownToolMessage,
} from "./meta-handlers.js";
import { buildMetaTools } from "./meta-tools.js";
import type { PlanBasis } from "./plan-basis.js";
import { readArguments, readBridgeTarget, unnestArguments } from "./repair-arguments.js";
import type { ResolvedSettings } from "./resolve-settings.js";
import type { RevealStore } from "./reveal-store.js";
import { errorResult, runHandler, toToolResult } from "./run-handler.js";
import type {
  CallDispatcher,
  CallRoute,
  DisclosureOptions,
  ExecuteInput,
  ExecuteOutcome,
} from "./types.js";
import { checkArguments } from "./validate-arguments.js";

/** What `executeCall` reads from its disclosure. */
export interface ExecuteContext {
  options: DisclosureOptions;
  settings: ResolvedSettings;
  basis: PlanBasis;
  store: RevealStore;
  meta: MetaContext;
  /** Meta tools the current plan offers; others answer like unknown tools and change nothing. */
  offered: ReadonlySet<string>;
  record: (outcome: ExecuteOutcome) => void;
}

// Node fires a timer beyond its range after 1 ms: such limits mean none
const MAX_TIMER_MS = 2 ** 31 - 1;
// time after the deadline for the budget layer's bounded truncation of a result whose
// summariser it abandoned at the deadline
const FINISH_GRACE_MS = 250;

interface Draft {
  tool: string;
  route: CallRoute;
  repairs: string[];
  revealed: string[];
  start: number;
}

function finish(
  draft: Draft,
  result: ToolResult,
  ran: boolean,
  errorCode?: string,
): ExecuteOutcome {
  const outcome: ExecuteOutcome = {
    ...result,
    tool: draft.tool,
    route: draft.route,
    ran,
    revealed: draft.revealed,
    repairs: draft.repairs,
    durationMs: Math.round((performance.now() - draft.start) * 1000) / 1000,
  };
  if (errorCode !== undefined) outcome.errorCode = errorCode;
  return outcome;
}

function message(error: unknown): string {
  // a thrown value's message getter or toString may itself throw
  try {
    return errorText(error);
  } catch {
    return "an error that cannot be read";
  }
}

type Replaced =
  | { ok: true; arguments: { [key: string]: unknown }; repairs: string[] }
  | { ok: false; message: string };

/**
 * Checks arguments a before-hook put in place of the validated ones: they must be an object and,
 * for a catalog tool, pass its schema again (a hook cannot smuggle in what validation refused).
 */
function checkReplacedArguments(
  tool: ToolDefinition,
  value: unknown,
  isMeta: boolean,
  options: DisclosureOptions,
): Replaced {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    return { ok: false, message: `expected an object, got ${got}` };
  }
  const args = value as { [key: string]: unknown };
  if (isMeta) return { ok: true, arguments: args, repairs: [] };
  const check = checkArguments(tool, args, {
    uncheckedSchemas: options.uncheckedSchemas ?? "refuse",
  });
  return check.ok
    ? { ok: true, arguments: check.arguments, repairs: check.repairs }
    : { ok: false, message: `its input schema rejects them:\n${check.problems}` };
}

/**
 * Executes one model tool call; never throws for anything the model sent.
 *
 * Order: unwrap the bridge (so every later step sees the real name), refuse meta targets and
 * core tools through the bridge, look the tool up among visible tools (hidden and unknown give
 * the same answer), reveal a deferred tool called directly, repair and validate arguments, run
 * before-hooks (arguments they replace are validated again), the handler (time limit, abort),
 * after-hooks, then the budget layer.
 */
export async function executeCall(
  input: ExecuteInput,
  context: ExecuteContext,
): Promise<ExecuteOutcome> {
  const start = performance.now();
  try {
    return await executeSteps(input, context);
  } catch (error) {
    // the last line of the no-throw promise: a step that threw on hostile input still answers
    const name = typeof input?.name === "string" ? input.name : "";
    const draft: Draft = { tool: name, route: "direct", repairs: [], revealed: [], start };
    const text = `Tool "${name.slice(0, 128)}" could not be processed: ${message(error)}. Check the call's arguments, or report this to the host.`;
    const outcome = finish(draft, errorResult(text), false, "internal");
    try {
      context.record(outcome);
    } catch {
      // metrics are not worth a throw
    }
    return outcome;
  }
}

async function executeSteps(input: ExecuteInput, context: ExecuteContext): Promise<ExecuteOutcome> {
  const { settings, basis, options } = context;
  const names = settings.names;
  const metaNames = new Set([names.search, names.describe, names.call]);
  const offered = context.offered;
  const draft: Draft = {
    tool: typeof input.name === "string" ? input.name : "",
    route: "direct",
    repairs: [],
    revealed: [],
    start: performance.now(),
  };
  const done = (result: ToolResult, ran: boolean, code?: string) => {
    const outcome = finish(draft, result, ran, code);
    context.record(outcome);
    return outcome;
  };

  if (typeof input.name !== "string" || input.name === "") {
    // a client or a parser may send a call without a name; it gets an answer, not a TypeError
    const got =
      input.name === "" ? "an empty name" : `${input.name === null ? "null" : typeof input.name}`;
    const text = `The call needs the name of a tool to run (got ${got}). Search for the tool you need.`;
    return done(errorResult(text), false, "tool_not_found");
  }
  let rawArguments = input.arguments;
  if (input.name === names.call && offered.has(names.call)) {
    draft.route = "bridge";
    const outer = readArguments(input.arguments);
    const target = outer.ok ? readBridgeTarget(outer.arguments) : outer;
    if (!target.ok) {
      return done(
        errorResult(`${names.call} did not run anything: ${target.message}.`),
        false,
        "invalid_arguments",
      );
    }
    draft.repairs.push(...(outer.ok ? outer.repairs : []), ...target.repairs);
    draft.tool = target.name;
    rawArguments = target.arguments;
    if (metaNames.has(target.name)) {
      const text = `${names.call} cannot run "${target.name}": meta tools are called directly, never through ${names.call}.`;
      return done(errorResult(text), false, "bridge_recursion");
    }
  }

  const isMeta = draft.route === "direct" && offered.has(draft.tool);
  let tool: ToolDefinition | undefined;
  if (isMeta) {
    draft.route = "meta";
    tool = buildMetaTools({
      names,
      strategy: "bridge",
      searchable: 0,
      defaultLimit: 1,
      maxLimit: 1,
      listing: "",
    }).find((meta) => meta.name === draft.tool);
  } else {
    tool = basis.visible.get(draft.tool);
  }
  if (!tool) {
    const extra = draft.route === "direct" ? offered : [];
    return done(errorResult(unknownToolMessage(draft.tool, basis, extra)), false, "tool_not_found");
  }
  const deferrable = basis.deferrableNames.has(tool.name);
  if (draft.route === "bridge" && !deferrable) {
    const text = `"${tool.name}" is already loaded: call it directly instead of through ${names.call}.`;
    return done(errorResult(text), false, "call_directly");
  }
  if (
    draft.route === "direct" &&
    deferrable &&
    settings.strategy === "reveal" &&
    !settings.nativeSearch
  ) {
    // the call was legal and the tool is visible, so it stays loaded from now on
    draft.revealed.push(...context.store.reveal(input.session, [tool.name]));
  }

  const read = readArguments(rawArguments);
  if (!read.ok) {
    return done(
      errorResult(`Tool "${tool.name}" did not run: ${read.message}.`),
      false,
      "invalid_arguments",
    );
  }
  const unnested = isMeta
    ? { arguments: read.arguments, repairs: [] }
    : unnestArguments(read.arguments, tool.inputSchema);
  draft.repairs.push(...read.repairs, ...unnested.repairs);
  let args = unnested.arguments;
  if (!isMeta) {
    const check = checkArguments(tool, args, {
      uncheckedSchemas: options.uncheckedSchemas ?? "refuse",
    });
    draft.repairs.push(...check.repairs);
    if (!check.ok) return done(errorResult(check.message), false, check.code);
    args = check.arguments;
  }

  const event = {
    session: input.session,
    name: tool.name,
    tool,
    arguments: args,
    route: draft.route,
  };
  for (const hook of options.hooks?.before ?? []) {
    try {
      const decision = await hook(event);
      if (decision?.deny !== undefined) {
        return done(
          errorResult(`Tool "${tool.name}" was not run: ${decision.deny}`),
          false,
          "denied",
        );
      }
      if (decision?.arguments !== undefined) {
        const replaced = checkReplacedArguments(tool, decision.arguments, isMeta, options);
        if (!replaced.ok) {
          const text = `Tool "${tool.name}" was not run: a before-call hook replaced its arguments with invalid ones; ${replaced.message}\nThe hook must return arguments that match the tool's input schema (the model's arguments were valid).`;
          return done(errorResult(text), false, "hook_failed");
        }
        draft.repairs.push(...replaced.repairs.map((repair) => `before-call hook: ${repair}`));
        event.arguments = replaced.arguments;
      }
    } catch (error) {
      return done(
        errorResult(
          `Tool "${tool.name}" was not run: a before-call check failed (${message(error)}).`,
        ),
        false,
        "hook_failed",
      );
    }
  }

  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? options.timeoutMs ?? 60_000;
  // the handler, result hooks and budgeting share one time limit; none beyond a timer's range
  const deadline = timeoutMs <= MAX_TIMER_MS ? started + timeoutMs : undefined;
  let result: ToolResult;
  if (isMeta) {
    const answer: MetaAnswer =
      tool.name === names.search
        ? runSearch(event.arguments, context.meta)
        : runDescribe(event.arguments, context.meta);
    draft.repairs.push(...answer.repairs);
    if (settings.strategy === "reveal" && answer.found.length > 0) {
      draft.revealed.push(...context.store.reveal(input.session, answer.found));
    }
    result = answer.result;
  } else if (!tool.handler && !options.onCall) {
    return done(
      errorResult(`Tool "${tool.name}" cannot run here: it has no handler.`),
      false,
      "no_handler",
    );
  } else {
    result = await runHandler(
      tool.name,
      tool.handler ?? dispatchTo(options.onCall as CallDispatcher, tool, draft.route),
      event.arguments,
      input.session,
      timeoutMs,
      input.signal,
      {
        upstreamName: tool.upstreamName ?? tool.name,
        ...(input.host !== undefined ? { host: input.host } : {}),
      },
    );
  }
  const durationMs = performance.now() - started;
  try {
    const afterHandler = async (handled: ToolResult): Promise<ToolResult> => {
      let value = handled;
      for (const hook of options.hooks?.after ?? []) {
        const replaced = await hook({ ...event, result: value, durationMs });
        // a hook written in plain JavaScript may return any value: normalise it like a handler's
        if (replaced !== undefined) value = toToolResult(replaced);
      }
      // meta results are not budgeted: a cut schema is worse than none, search has its own budget
      if (!isMeta && options.budgetResult) {
        const context =
          deadline === undefined
            ? { session: input.session }
            : { deadline, session: input.session };
        value = await options.budgetResult(value, tool, context);
      }
      return value;
    };
    // the budget layer gives up on a slow summariser at the deadline and truncates instead (a
    // bounded cut, kept with its spill note); past a grace for that cut, the call stops waiting
    const finished =
      deadline === undefined
        ? await afterHandler(result)
        : await beforeDeadline(afterHandler(result), deadline + FINISH_GRACE_MS);
    if (finished === undefined) {
      return done(
        errorResult(
          `Tool "${tool.name}" ran, but its result could not be processed within the call's time limit of ${timeoutMs} ms (a result hook or the result budget did not finish). Try a smaller request, or raise timeoutMs.`,
        ),
        true,
        "timeout",
      );
    }
    result = finished;
  } catch (error) {
    return done(
      errorResult(
        `Tool "${tool.name}" ran, but its result could not be processed (${message(error)}).`,
      ),
      true,
      "hook_failed",
    );
  }
  return done(result, true, result.isError ? "tool_error" : undefined);
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
