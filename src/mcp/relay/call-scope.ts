/**
 * What a gateway request carries down to the upstream call it causes: the client's progress
 * callback, its server→client relay and, with telemetry, the tracer of the upstream call. The gateway session hands it to `sift.execute` as the
 * call's `host` value, which dispatch passes to the handler unchanged; the routing function reads
 * it back with `callScopeOf`. Nothing ambient: a call sees only the scope it was given.
 */
import type { ClientRelay } from "./client-relay.js";

/** A progress report as MCP sends it. */
export interface UpstreamProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** The per-request scope of one client call. */
export interface CallScope {
  onProgress?: (progress: UpstreamProgress) => void;
  /** Answers the upstream's sampling/elicitation/roots requests made during the call. */
  relay?: ClientRelay;
  /** Told as the call reaches the upstream `server` (its own name for the tool); the function
   * it returns is told how the upstream answered (a tracer's child span). */
  onUpstreamCall?: (server: string, tool: string) => (end: UpstreamCallEnd) => void;
}

/** How an upstream answered a call: `errorCode` says why the gateway got no answer
 * (`upstream_unavailable`, `upstream_timeout`, …) or is `tool_error` for the tool's own error. */
export interface UpstreamCallEnd {
  isError: boolean;
  errorCode?: string;
}

// marks a host value as a gateway call's scope: `host` is the library user's too (any value)
const SCOPE = Symbol("toolsift call scope");

/** The scope as a call's `host` value. */
export function asCallHost(scope: CallScope): CallScope {
  return Object.assign({}, scope, { [SCOPE]: true });
}

/** The gateway call's scope carried by `host`, or undefined for any other host value. */
export function callScopeOf(host: unknown): CallScope | undefined {
  return typeof host === "object" && host !== null && SCOPE in host
    ? (host as CallScope)
    : undefined;
}
