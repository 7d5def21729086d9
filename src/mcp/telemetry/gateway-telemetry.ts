/**
 * `createGatewayTelemetry`: OpenTelemetry spans and metrics for the gateway, through
 * `@opentelemetry/api` (an optional peer, loaded by `loadGatewayTelemetry` only when asked for,
 * `toolsift serve --otel`). What is recorded is what happened, never what was said: tool and
 * server names, route, outcome, error code, token counts, durations, and the session's user
 * (`enduser.id`, its token's subject) when an identity provider checks the gateway. Argument
 * values and result text never become attributes.
 */
import { ToolsiftError } from "../../errors.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import { type CallInstruments, type CallTrace, startCallTrace } from "./call-trace.js";
import {
  type Attributes,
  KIND_SERVER,
  type OpenTelemetryAPI,
  statusOf,
  type TelemetryMeter,
} from "./otel-api.js";

export type { CallFacts, CallTrace } from "./call-trace.js";
export type { OpenTelemetryAPI } from "./otel-api.js";

/** A `tools/list` request as the gateway answered it. */
export interface ListFacts {
  mode: string;
  /** Tools on this page. */
  tools: number;
  /** Tools the session's plan defers (searchable, not listed). */
  deferred: number;
  /** What deferral saves on this listing: tokens of every visible definition minus those of
   * the listed ones (first page only: a listing is one turn, however many pages). */
  tokensSaved?: number | undefined;
  user?: string | undefined;
}

/** The gateway's telemetry; pass it as `telemetry` to `serveHttp`, `serveStdio` or
 * `createGatewaySession`. Members marked optional are skipped when a host's own telemetry
 * leaves them out. */
export interface GatewayTelemetry {
  /** Starts the span of a `tools/call` for `name` in a session of `mode`; `user` is the
   * session's user (its token's subject, with an identity provider), absent otherwise. */
  startCall(name: string, mode: string, user?: string): CallTrace;
  /** Records a `tools/list` request (a span) and what deferral saved on it (a histogram). */
  listed?(facts: ListFacts): void;
  /** Counts a session of `mode` as open on this process until the returned function runs. */
  openSession?(mode: string): () => void;
  /** Records each start, restart and login start of the sift's upstreams; returns the
   * unsubscribe. */
  watchUpstreams(sift: MCPToolSift): () => void;
}

const SCOPE = "toolsift";

/** The instruments of every call: counters and latency histograms by few-valued attributes. */
function callInstruments(api: OpenTelemetryAPI, meter: TelemetryMeter): CallInstruments {
  return {
    api,
    tracer: api.trace.getTracer(SCOPE),
    calls: meter.createCounter("toolsift.calls", { description: "tools/call requests" }),
    errors: meter.createCounter("toolsift.call.errors", {
      description: "tools/call requests answered with an error result",
    }),
    duration: meter.createHistogram("toolsift.call.duration", {
      description: "Time from a tools/call request to its answer",
      unit: "ms",
    }),
    upstreamDuration: meter.createHistogram("toolsift.upstream.duration", {
      description: "Time an upstream server took to answer a tools/call",
      unit: "ms",
    }),
    cut: meter.createCounter("toolsift.results.truncated", {
      description: "Results cut by the result budget",
    }),
    saved: meter.createHistogram("toolsift.results.tokens_saved", {
      description: "Tokens a cut result did not send",
      unit: "{token}",
    }),
    turnSaved: meter.createHistogram("toolsift.turn.tokens_saved", {
      description:
        "Tokens of tool definitions deferral kept out of a turn (tools/list, or a search)",
      unit: "{token}",
    }),
    found: meter.createHistogram("toolsift.search.results", {
      description: "Tools a search returned",
    }),
  };
}

/** The sessions gauge: sessions open on this process, by mode, read at each collection. */
function sessionGauge(meter: TelemetryMeter): (mode: string) => () => void {
  const open = new Map<string, number>();
  meter
    .createObservableUpDownCounter("toolsift.sessions", {
      description: "Gateway sessions open on this process",
      unit: "{session}",
    })
    .addCallback((result) => {
      for (const [mode, count] of open) result.observe(count, { "toolsift.mode": mode });
    });
  return (mode) => {
    open.set(mode, (open.get(mode) ?? 0) + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      open.set(mode, (open.get(mode) ?? 1) - 1);
    };
  };
}

/** The telemetry over an OpenTelemetry API; without a registered SDK every call is a no-op. */
export function createGatewayTelemetry(api: OpenTelemetryAPI): GatewayTelemetry {
  const meter = api.metrics.getMeter(SCOPE);
  const instruments = callInstruments(api, meter);
  const { tracer, turnSaved } = instruments;
  const starts = meter.createCounter("toolsift.upstream.starts", {
    description: "Upstream server starts, restarts and starts after a login, by outcome",
  });
  const restarts = meter.createCounter("toolsift.upstream.restarts", {
    description: "Upstream server restarts after a crash, by outcome",
  });
  return {
    startCall: (name, mode, user) => startCallTrace(instruments, name, mode, user),
    listed(facts) {
      const span = tracer.startSpan(
        "toolsift.tools/list",
        { kind: KIND_SERVER, attributes: listAttributes(facts) },
        api.context.active(),
      );
      span.setStatus(statusOf(undefined));
      span.end();
      if (facts.tokensSaved !== undefined) {
        turnSaved.record(Math.max(0, facts.tokensSaved), {
          "toolsift.mode": facts.mode,
          "toolsift.turn": "list",
        });
      }
    },
    openSession: sessionGauge(meter),
    watchUpstreams(sift) {
      return sift.upstreams.onStarted((server, start) => {
        const now = Date.now();
        const outcome = start.ok ? "ok" : "error";
        const span = tracer.startSpan("toolsift.upstream.start", {
          startTime: now - start.durationMs,
          attributes: {
            "toolsift.server": server,
            "toolsift.upstream.start": start.kind,
            "toolsift.outcome": outcome,
            "toolsift.upstream.tools":
              sift.upstreams.status().find((entry) => entry.server === server)?.tools ?? 0,
          },
        });
        span.setStatus(statusOf(start.ok ? undefined : "upstream_start_failed"));
        span.end(now);
        const attributes = { "toolsift.server": server, "toolsift.outcome": outcome };
        starts.add(1, { ...attributes, "toolsift.upstream.start": start.kind });
        if (start.kind === "restart") restarts.add(1, attributes);
      });
    },
  };
}

function listAttributes(facts: ListFacts): Attributes {
  return {
    "toolsift.mode": facts.mode,
    "toolsift.listed": facts.tools,
    "toolsift.deferred": facts.deferred,
    ...(facts.tokensSaved !== undefined ? { "toolsift.tokens_saved": facts.tokensSaved } : {}),
    ...(facts.user ? { "enduser.id": facts.user } : {}),
  };
}

/** Loads `@opentelemetry/api` (the optional peer) and creates the telemetry over it; the
 * process's registered OpenTelemetry SDK (if any) exports what is recorded. */
export async function loadGatewayTelemetry(): Promise<GatewayTelemetry> {
  let api: OpenTelemetryAPI;
  try {
    api = (await import("@opentelemetry/api")) as unknown as OpenTelemetryAPI;
  } catch (error) {
    throw new ToolsiftError(
      "invalid_option",
      "OpenTelemetry (--otel) needs the @opentelemetry/api package: npm install @opentelemetry/api@^1.9.0, and register an OpenTelemetry SDK to export (see docs/deploy.md).",
      { cause: error },
    );
  }
  return createGatewayTelemetry(api);
}
