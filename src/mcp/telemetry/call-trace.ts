/**
 * `startCallTrace`: the span of one `tools/call` request and its children (the search, the
 * upstream call, the result budget), parented explicitly through the context the request span
 * makes, so no context manager (AsyncLocalStorage) is needed. Names, codes and counts only.
 */
import type { BudgetFacts, CallPhase, CallPhaseFacts } from "../../disclosure/index.js";
import type { UpstreamCallEnd } from "../relay/call-scope.js";
import {
  type Attributes,
  KIND_CLIENT,
  KIND_SERVER,
  type OpenTelemetryAPI,
  statusOf,
  type TelemetryMeter,
  type TelemetryTracer,
} from "./otel-api.js";

/** What the gateway knows once a `tools/call` is answered. */
export interface CallFacts {
  /** The real tool that ran (the meta tool's name for search and describe). */
  tool: string;
  /** The upstream server that owns it; absent for the gateway's own tools. */
  server?: string | undefined;
  route: string;
  isError: boolean;
  errorCode?: string | undefined;
  /** Tokens before, and the limit, when the result budget cut the result. */
  truncated?: { tokens: number; limit: number } | undefined;
  /** Whether the full result was stored for `tool_result_read`. */
  spilled: boolean;
  /** Tools a search returned (search calls only). */
  searchResults?: number | undefined;
  /** Tools newly revealed to the session. */
  revealed: number;
  durationMs: number;
  /** A search turn: what deferral saves with the session's tools after it (tokens of every
   * visible definition minus those listed). */
  turnTokensSaved?: number | undefined;
}

/** A started `tools/call` span: `phase` and `upstream` start its children, `end` sets its
 * attributes, status and metrics. */
export interface CallTrace {
  /** Times a phase of the call as a child span; pass it as `ExecuteInput.onPhase`. */
  phase?(phase: CallPhase): (facts?: CallPhaseFacts) => void;
  /** Times the upstream call as a child span; pass it as the call scope's `onUpstreamCall`. */
  upstream?(server: string, tool: string): (end: UpstreamCallEnd) => void;
  end(facts: CallFacts): void;
}

/** What every call of one gateway records into. */
export interface CallInstruments {
  api: OpenTelemetryAPI;
  tracer: TelemetryTracer;
  calls: ReturnType<TelemetryMeter["createCounter"]>;
  errors: ReturnType<TelemetryMeter["createCounter"]>;
  duration: ReturnType<TelemetryMeter["createHistogram"]>;
  upstreamDuration: ReturnType<TelemetryMeter["createHistogram"]>;
  cut: ReturnType<TelemetryMeter["createCounter"]>;
  saved: ReturnType<TelemetryMeter["createHistogram"]>;
  turnSaved: ReturnType<TelemetryMeter["createHistogram"]>;
  found: ReturnType<TelemetryMeter["createHistogram"]>;
}

/** OpenTelemetry's semantic-convention attribute for the authenticated user. */
const ENDUSER_ID = "enduser.id";

const PHASE_SPANS: Record<CallPhase, string> = {
  search: "toolsift.search",
  budget: "toolsift.result_budget",
};

/** Starts the span of a `tools/call` for `name` in a session of `mode`, under the active
 * context (an instrumented HTTP server's span, if any). */
export function startCallTrace(
  instruments: CallInstruments,
  name: string,
  mode: string,
  user: string | undefined,
): CallTrace {
  const { api, tracer } = instruments;
  // the user is a span attribute only, never a metric one: series would multiply by users
  const span = tracer.startSpan(
    "toolsift.tools/call",
    {
      kind: KIND_SERVER,
      attributes: {
        "toolsift.called": name,
        "toolsift.mode": mode,
        ...(user ? { [ENDUSER_ID]: user } : {}),
      },
    },
    api.context.active(),
  );
  const parent = api.trace.setSpan(api.context.active(), span);
  let applied: Partial<BudgetFacts> | undefined;
  // why the upstream gave no answer says more than dispatch's generic `tool_error`
  let upstreamCode: string | undefined;
  return {
    phase(phase) {
      const child = tracer.startSpan(PHASE_SPANS[phase], {}, parent);
      return (facts) => {
        if (facts?.phase === "budget") applied = facts;
        if (facts) child.setAttributes(phaseAttributes(facts));
        // ended without facts: the phase threw (the call's own span says how it ended)
        child.setStatus(statusOf(facts ? undefined : `${phase}_failed`));
        child.end();
      };
    },
    upstream(server, tool) {
      const base = { "toolsift.server": server };
      const child = tracer.startSpan(
        "toolsift.upstream.call",
        { kind: KIND_CLIENT, attributes: { ...base, "toolsift.upstream.tool": tool } },
        parent,
      );
      const start = performance.now();
      return (end) => {
        const outcome = {
          ...base,
          "toolsift.outcome": end.isError ? "error" : "ok",
          ...(end.errorCode !== undefined ? { "toolsift.error_code": end.errorCode } : {}),
        };
        if (end.isError) upstreamCode = end.errorCode;
        child.setAttributes(outcome);
        child.setStatus(statusOf(end.isError ? (end.errorCode ?? "error") : undefined));
        child.end();
        instruments.upstreamDuration.record(performance.now() - start, outcome);
      };
    },
    end(told) {
      const facts =
        told.errorCode === "tool_error" && upstreamCode !== undefined
          ? { ...told, errorCode: upstreamCode }
          : told;
      if (facts.searchResults !== undefined) span.updateName("toolsift.tool_search");
      span.setAttributes({ ...callAttributes(facts), ...budgetAttributes(facts, applied) });
      span.setStatus(statusOf(facts.isError ? (facts.errorCode ?? "error") : undefined));
      span.end();
      recordCall(instruments, facts, applied);
      if (facts.turnTokensSaved !== undefined) {
        instruments.turnSaved.record(Math.max(0, facts.turnTokensSaved), {
          "toolsift.mode": mode,
          "toolsift.turn": "search",
        });
      }
    },
  };
}

/** The call's metrics, by few-valued attributes. */
function recordCall(
  instruments: CallInstruments,
  facts: CallFacts,
  applied: Partial<BudgetFacts> | undefined,
): void {
  const kept = metricAttributes(facts);
  instruments.calls.add(1, kept);
  if (facts.isError) instruments.errors.add(1, kept);
  instruments.duration.record(facts.durationMs, kept);
  if (facts.truncated) {
    instruments.cut.add(1, kept);
    const { tokensBefore, tokensAfter } = applied ?? {};
    const saved =
      tokensBefore !== undefined && tokensAfter !== undefined
        ? tokensBefore - tokensAfter
        : facts.truncated.tokens - facts.truncated.limit;
    instruments.saved.record(Math.max(0, saved), kept);
  }
  if (facts.searchResults !== undefined) instruments.found.record(facts.searchResults);
}

function phaseAttributes(facts: CallPhaseFacts): Attributes {
  if (facts.phase === "search") {
    return {
      "toolsift.search.queries": facts.queries,
      "toolsift.search.results": facts.results,
      "toolsift.revealed": facts.revealed,
    };
  }
  return budgetAttributes(undefined, facts);
}

function callAttributes(facts: CallFacts): Attributes {
  return {
    "toolsift.tool": facts.tool,
    "toolsift.route": facts.route,
    "toolsift.outcome": facts.isError ? "error" : "ok",
    "toolsift.revealed": facts.revealed,
    "toolsift.duration_ms": Math.round(facts.durationMs * 10) / 10,
    ...(facts.server !== undefined ? { "toolsift.server": facts.server } : {}),
    ...(facts.errorCode !== undefined ? { "toolsift.error_code": facts.errorCode } : {}),
    ...(facts.searchResults !== undefined
      ? { "toolsift.search.results": facts.searchResults }
      : {}),
  };
}

/** The result budget's attributes: what it measured when it ran (`applied`), else what the
 * call's cut note and spill note say. */
function budgetAttributes(
  facts: CallFacts | undefined,
  applied: Partial<BudgetFacts> | undefined,
): Attributes {
  const numbers: [string, number | undefined][] = [
    ["toolsift.result_tokens.before", applied?.tokensBefore ?? facts?.truncated?.tokens],
    ["toolsift.result_tokens.after", applied?.tokensAfter],
    ["toolsift.result_tokens.limit", applied?.limit ?? facts?.truncated?.limit],
  ];
  const flags: [string, boolean | undefined][] = [
    [
      "toolsift.truncated",
      applied?.truncated ?? (facts ? facts.truncated !== undefined : undefined),
    ],
    ["toolsift.spilled", applied?.spilled ?? facts?.spilled],
    ["toolsift.summarized", applied?.summarized],
  ];
  return Object.fromEntries(
    [...numbers, ...flags].filter(
      (entry): entry is [string, number | boolean] => entry[1] !== undefined,
    ),
  );
}

/** Metric attributes stay few-valued: server, route and outcome (tool names would multiply
 * series by the catalog's size). */
function metricAttributes(facts: CallFacts): Attributes {
  return {
    "toolsift.route": facts.route,
    "toolsift.outcome": facts.isError ? "error" : "ok",
    ...(facts.server !== undefined ? { "toolsift.server": facts.server } : {}),
    ...(facts.errorCode !== undefined ? { "toolsift.error_code": facts.errorCode } : {}),
  };
}
