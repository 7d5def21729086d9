/** Public types of the MCP layer: upstream server settings, statuses and log entries. */

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
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
  /** OAuth for this server (`docs/auth.md`). Default: a server that answers 401 is logged in to
   * with dynamic registration (`toolsift auth login`); `false` turns OAuth off. A server with an
   * `Authorization` header never uses OAuth. */
  auth?: UpstreamAuthConfig | false;
}

/** How toolsift logs in to one HTTP upstream that asks for OAuth. */
export interface UpstreamAuthConfig {
  /** `authorization_code` (default): a user logs in with `toolsift auth login`;
   * `client_credentials`: a machine client with `clientId` and `clientSecret` or `privateKey`. */
  grant?: "authorization_code" | "client_credentials";
  /** A client registered in advance with the authorization server; without one, toolsift uses
   * `clientMetadataUrl` when the server supports it, else dynamic registration. */
  clientId?: string;
  clientSecret?: string;
  /** An https URL of toolsift's client ID metadata document (used when the server supports it). */
  clientMetadataUrl?: string;
  /** Scopes to ask for (space-separated) when neither the server's 401 nor its metadata name any. */
  scope?: string;
  /** A PEM private key for `client_credentials` with `private_key_jwt`. */
  privateKey?: string;
  /** The JWS algorithm of `privateKey`; default RS256. */
  signingAlgorithm?: string;
  /** A fixed port for the login's loopback redirect (for servers that match it exactly). */
  redirectPort?: number;
  /** The client name shown on the consent screen; default "toolsift". */
  clientName?: string;
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

/** The auth side of one upstream (`auth/upstream-auth.ts` makes it). */
export interface UpstreamAuth {
  readonly provider: OAuthClientProvider;
  /** The transport's `fetch`: refreshes one at a time per login (`refresh-lock.ts`). */
  readonly fetch?: FetchLike;
  readonly loginCommand: string;
  /** Starts the loopback listener of an interactive login; a no-op otherwise. */
  prepare(): Promise<void>;
  /** Runs `attempt`; when it fails because an interactive login was started, finishes the
   * login (waits for the code, exchanges it) and runs it once more. */
  retrying<T>(attempt: () => Promise<T>): Promise<T>;
  /** The words for `error` when it means a user must log in (passive); else undefined. */
  loginNeeded(error: unknown): string | undefined;
  /** The store entry changed on disk (a login elsewhere): forget what was read. */
  reload(): void;
  /** Calls `listener` when a login is written to the store; returns the function that stops. */
  onLogin(listener: () => void): () => void;
  close(): Promise<void>;
}
