/** Public types of the MCP layer: upstream server settings, statuses and log entries. */

import type { DeferPolicy } from "../catalog/index.js";
import type { UpstreamState } from "./upstream/upstream-state.js";

/** Settings every upstream server may carry, whatever its transport. */
export interface UpstreamCommonOptions {
  /** `false` leaves the server out entirely; default true. */
  enabled?: boolean;
  /** Defer policy given to every tool of the server (default: the tool's own, else `auto`). */
  defer?: DeferPolicy;
  /** Upstream tool names (or picomatch globs) that are never deferred. */
  neverDefer?: readonly string[];
  /** Profile name(s) the server's tools belong to. */
  profile?: string | readonly string[];
  /** Milliseconds a tools/call may take before it returns a timeout error; default 60,000. */
  callTimeoutMs?: number;
  /** Start the process on the first call instead of at connect; needs `tools` (known tools). */
  lazy?: boolean;
  /** The server's tools as known in advance (e.g. from `toolsift dump`); required by `lazy`. */
  tools?: readonly unknown[];
}

/** An upstream started as a child process speaking MCP over stdio. */
export interface StdioServerConfig extends UpstreamCommonOptions {
  command: string;
  args?: readonly string[];
  /** Added to the default environment (PATH, HOME, …), not replacing it. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** An upstream reached over streamable HTTP (or legacy SSE). */
export interface HttpServerConfig extends UpstreamCommonOptions {
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** `http` is streamable HTTP; `sse` the legacy HTTP+SSE transport; default `http`, falling
   * back to `sse` when the server rejects streamable HTTP. */
  transport?: "http" | "sse";
}

export type UpstreamServerConfig = StdioServerConfig | HttpServerConfig;

/** Where a catalog name leads: the upstream server and the tool's name there. */
export interface UpstreamRoute {
  server: string;
  tool: string;
}

/** The life state of one upstream. */
export type { UpstreamState } from "./upstream/upstream-state.js";

/** What `status()` reports per server. */
export interface UpstreamStatus {
  server: string;
  state: UpstreamState;
  tools: number;
  /** Restarts after crashes since the last successful call. */
  restarts: number;
  /** Why it is down, when it is. */
  error?: string;
}

/** One line of the gateway's log; the CLI prints these on stderr. */
export interface MCPLogEntry {
  level: "error" | "warn" | "info" | "debug";
  server?: string;
  message: string;
}
