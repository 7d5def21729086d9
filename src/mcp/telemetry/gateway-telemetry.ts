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

/** The parts of `@opentelemetry/api` the gateway uses (a structural subset, so toolsift's types
 * do not need the package). Pass the module itself. */
export interface OpenTelemetryAPI {
  trace: { getTracer(name: string, version?: string): TelemetryTracer };
  metrics: { getMeter(name: string, version?: string): TelemetryMeter };
}
type Attributes = Record<string, string | number | boolean>;
interface TelemetrySpan {
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  updateName(name: string): unknown;
  end(): void;
}
interface TelemetryTracer {
  startSpan(name: string, options?: { attributes?: Attributes }): TelemetrySpan;
}
interface TelemetryMeter {
  createCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): {
    add(value: number, attributes?: Attributes): void;
  };
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string },
  ): {
    record(value: number, attributes?: Attributes): void;
  };
}

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
}

/** A started `tools/call` span; `end` sets its attributes, status and metrics. */
export interface CallTrace {
  end(facts: CallFacts): void;
}

/** The gateway's telemetry; pass it as `telemetry` to `serveHttp`, `serveStdio` or
 * `createGatewaySession`. */
export interface GatewayTelemetry {
  /** Starts the span of a `tools/call` for `name` in a session of `mode`; `user` is the
   * session's user (its token's subject, with an identity provider), absent otherwise. */
  startCall(name: string, mode: string, user?: string): CallTrace;
  /** Records each (re)start of the sift's upstreams, seen when its tools are listed; returns
   * the unsubscribe. */
  watchUpstreams(sift: MCPToolSift): () => void;
}

const STATUS_OK = 1;
const STATUS_ERROR = 2;
const SCOPE = "toolsift";
/** OpenTelemetry's semantic-convention attribute for the authenticated user. */
const ENDUSER_ID = "enduser.id";

/** The telemetry over an OpenTelemetry API; without a registered SDK every call is a no-op. */
export function createGatewayTelemetry(api: OpenTelemetryAPI): GatewayTelemetry {
  const tracer = api.trace.getTracer(SCOPE);
  const meter = api.metrics.getMeter(SCOPE);
  const calls = meter.createCounter("toolsift.calls", { description: "tools/call requests" });
  const errors = meter.createCounter("toolsift.call.errors", {
    description: "tools/call requests answered with an error result",
  });
  const duration = meter.createHistogram("toolsift.call.duration", {
    description: "Time from a tools/call request to its answer",
    unit: "ms",
  });
  const cut = meter.createCounter("toolsift.results.truncated", {
    description: "Results cut by the result budget",
  });
  const saved = meter.createHistogram("toolsift.results.tokens_saved", {
    description: "Tokens a cut result did not send",
    unit: "{token}",
  });
  const found = meter.createHistogram("toolsift.search.results", {
    description: "Tools a search returned",
  });
  const starts = meter.createCounter("toolsift.upstream.starts", {
    description: "Upstream server starts and restarts (tools listed)",
  });
  return {
    startCall(name, mode, user) {
      // the user is a span attribute only, never a metric one: series would multiply by users
      const span = tracer.startSpan("toolsift.tools/call", {
        attributes: {
          "toolsift.called": name,
          "toolsift.mode": mode,
          ...(user ? { [ENDUSER_ID]: user } : {}),
        },
      });
      return {
        end(facts) {
          const attributes = callAttributes(facts);
          if (facts.searchResults !== undefined) span.updateName("toolsift.tool_search");
          span.setAttributes({ ...attributes, ...budgetAttributes(facts) });
          span.setStatus(
            facts.isError
              ? { code: STATUS_ERROR, message: facts.errorCode ?? "error" }
              : { code: STATUS_OK },
          );
          span.end();
          const kept = metricAttributes(facts);
          calls.add(1, kept);
          if (facts.isError) errors.add(1, kept);
          duration.record(facts.durationMs, kept);
          if (facts.truncated) {
            cut.add(1, kept);
            saved.record(Math.max(0, facts.truncated.tokens - facts.truncated.limit), kept);
          }
          if (facts.searchResults !== undefined) found.record(facts.searchResults);
        },
      };
    },
    watchUpstreams(sift) {
      return sift.upstreams.onToolsChanged((server) => {
        const status = sift.upstreams.status().find((entry) => entry.server === server);
        const span = tracer.startSpan("toolsift.upstream.start", {
          attributes: {
            "toolsift.server": server,
            "toolsift.upstream.tools": status?.tools ?? 0,
            "toolsift.upstream.restarts": status?.restarts ?? 0,
          },
        });
        span.end();
        starts.add(1, { "toolsift.server": server });
      });
    },
  };
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

function budgetAttributes(facts: CallFacts): Attributes {
  return {
    "toolsift.truncated": facts.truncated !== undefined,
    "toolsift.spilled": facts.spilled,
    ...(facts.truncated
      ? {
          "toolsift.result_tokens.before": facts.truncated.tokens,
          "toolsift.result_tokens.limit": facts.truncated.limit,
        }
      : {}),
  };
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
