/**
 * One upstream MCP server: starts it (stdio or HTTP), lists its tools page by page, routes calls
 * to it with a time limit, notices crashes and restarts it lazily on the next call with a
 * bounded number of attempts and a growing pause between failed ones. This file wires one
 * `UpstreamRun` (upstream-run.ts) to its connection hooks and exposes it; starting and
 * restarting is start-upstream.ts, calls and requests call-upstream.ts. Its life is the state
 * machine of upstream-state.ts; how a connection opens is upstream-connect.ts, when a restart
 * may be tried restart-gate.ts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  ClientRequest,
  LoggingMessageNotification,
  ServerCapabilities,
  ServerNotification,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolResult } from "../../catalog/index.js";
import type { UpstreamAuthOptions } from "../auth/upstream-auth.js";
import type { ElicitationHandler } from "../relay/answer-elicitation.js";
import { createServerRequestRelay } from "../relay/client-relay.js";
import { type ClientRelay, createRelayTracker } from "../relay/relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig, UpstreamStatus } from "../types.js";
import {
  callUpstream,
  requestUpstream,
  type UpstreamCallOptions,
  type UpstreamRequestOptions,
} from "./call-upstream.js";
import { limitLogMessages } from "./limit-log-messages.js";
import { createRestartGate } from "./restart-gate.js";
import { connectionLost, relistInto, startUpstream } from "./start-upstream.js";
import { closeConnection, pidOf, sdkOf, type UpstreamConnection } from "./upstream-connect.js";
import {
  createLogin,
  listFrom,
  publish,
  type UpstreamRun,
  type UpstreamStart,
} from "./upstream-run.js";
import { createUpstreamLife } from "./upstream-state.js";

/** Options of `createUpstreamServer`. */
export interface UpstreamServerOptions {
  name: string;
  config: UpstreamServerConfig;
  log: (entry: MCPLogEntry) => void;
  /** Called with the full tool list after every (re)listing. */
  onTools: (tools: readonly Tool[]) => void;
  /** Called as each start (first, restart after a crash, or after a login) settles. */
  onStarted?: (start: UpstreamStart) => void;
  /** Called with each `notifications/message` (log) the server sends. */
  onLogMessage?: (params: LoggingMessageNotification["params"]) => void;
  /** Called with resource and prompt notifications (updated, list changed). */
  onNotification?: (notification: ServerNotification) => void;
  /** A relay per connected client session: a request made outside any call goes to the only
   * one (with several, it is declined). */
  connectedClients?: () => readonly ClientRelay[];
  /** Answers elicitations that no client session can take; default: decline. */
  onElicitation?: ElicitationHandler;
  /** Restart attempts after crashes before pausing; default 3. */
  maxRestarts?: number;
  /** After `maxRestarts` restarts without a successful call, no restart is tried for this many
   * milliseconds after the last failure; then the count starts again. Default 60,000. */
  restartQuietMs?: number;
  /** Milliseconds for the whole start: connect, initialize and every page of `tools/list`;
   * default 30,000. */
  startTimeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /** How an HTTP server that asks for OAuth logs in (`docs/auth.md`); default: logins from the
   * file store, `needs_login` until there is one. */
  auth?: UpstreamAuthOptions;
}

/** A running (or runnable) upstream. */
export interface UpstreamServer {
  readonly name: string;
  /** Connects and lists tools; rejects with a message naming the server and the fix. */
  start(): Promise<void>;
  /** Calls a tool; never throws: failures are `isError` results naming the server and a fix. */
  call(
    tool: string,
    args: Record<string, unknown>,
    options?: UpstreamCallOptions,
  ): Promise<ToolResult>;
  /** Sends any other request (resources, prompts, completion); failures throw `McpError`s
   * naming the server. */
  request<S extends z.ZodType>(
    request: ClientRequest,
    schema: S,
    options?: UpstreamRequestOptions,
  ): Promise<z.infer<S>>;
  /** What the server declared at `initialize`, while it is up. */
  capabilities(): ServerCapabilities | undefined;
  /** The `instructions` of its `initialize` answer, while it is up. */
  instructions(): string | undefined;
  /** Re-lists the tools (done automatically on `notifications/tools/list_changed`). */
  relist(): Promise<void>;
  status(): UpstreamStatus;
  /** The connected SDK client, while the server is up. */
  client(): Client | undefined;
  /** The child process id of a stdio server while it runs. */
  pid(): number | undefined;
  close(): Promise<void>;
}

/** The run of one upstream, wired to its connection: nothing is started yet. */
function createRun(options: UpstreamServerOptions): UpstreamRun {
  const { name, config, log } = options;
  const relays = createRelayTracker(options.connectedClients ?? (() => []));
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  // one limit per server, across its restarts: a flood of log lines is thinned and counted
  const passLog = limitLogMessages(name, (params) => options.onLogMessage?.(params));
  const login = createLogin(name, config, options.auth);
  const run: UpstreamRun = {
    name,
    config,
    log,
    // called through the caller's options object, so a method passed there keeps its `this`
    onTools: (tools) => options.onTools(tools),
    onStarted: (start) => options.onStarted?.(start),
    life: createUpstreamLife(name),
    gate: createRestartGate(options.maxRestarts ?? 3, options.restartQuietMs ?? 60_000),
    relays,
    hooks: {
      name,
      config,
      log,
      clientInfo: options.clientInfo ?? { name: "toolsift", version: "0.1.0" },
      timeoutMs: startTimeoutMs,
      serverRequests: createServerRequestRelay(name, relays, {
        onElicitation: options.onElicitation,
        log,
      }),
      progressActive: () => run.progressCalls > 0,
      onToolsChanged: (connection) => void relistInto(run, connection),
      onClose: (connection) => connectionLost(run, connection),
      onLogMessage: passLog,
      onNotification: (notification) => options.onNotification?.(notification),
      ...(login.auth
        ? {
            authProvider: login.auth.provider,
            ...(login.auth.fetch ? { authFetch: login.auth.fetch } : {}),
            retrying: login.auth.retrying.bind(login.auth),
            loginNeeded: (error: unknown) => login.auth?.loginNeeded(error) !== undefined,
          }
        : {}),
    },
    callTimeoutMs: config.callTimeoutMs ?? 60_000,
    startTimeoutMs,
    login,
    stopWatching: undefined,
    connection: undefined,
    starting: undefined,
    toolCount: config.tools?.length ?? 0,
    lastError: undefined,
    progressCalls: 0,
    announcedFor: undefined,
    relisting: undefined,
    relistAgain: undefined,
  };
  // a login written while the server waits for one brings it up, without a call or a restart
  run.stopWatching = login.auth?.onLogin(() => {
    if (run.life.state === "needs_login") startUpstream(run).catch(() => undefined);
  });
  return run;
}

function capabilitiesOf(
  connection: UpstreamConnection | undefined,
): ServerCapabilities | undefined {
  if (connection?.kind === "v1") return connection.client.getServerCapabilities();
  return connection?.modern.capabilities();
}

/** Creates an upstream; nothing starts until `start()` or the first call. */
export function createUpstreamServer(options: UpstreamServerOptions): UpstreamServer {
  const run = createRun(options);
  const sdk = () => (run.connection ? sdkOf(run.connection) : undefined);
  return {
    name: run.name,
    start: () => startUpstream(run),
    call: (tool, args, callOptions = {}) => callUpstream(run, tool, args, callOptions),
    request: (request, schema, requestOptions = {}) =>
      requestUpstream(run, request, schema, requestOptions),
    capabilities: () => capabilitiesOf(run.connection),
    instructions: () =>
      run.connection?.kind === "v1" ? run.connection.client.getInstructions() : undefined,
    async relist() {
      await startUpstream(run);
      const connected = sdk();
      if (connected) publish(run, await listFrom(run, connected));
    },
    status: () => ({
      server: run.name,
      state: run.life.state,
      tools: run.toolCount,
      restarts: run.gate.restarts,
      ...(run.lastError !== undefined && run.life.state !== "ready"
        ? { error: run.lastError }
        : {}),
    }),
    client: () => (run.connection?.kind === "v1" ? run.connection.client : undefined),
    pid: () => pidOf(run.connection),
    async close() {
      run.life.advance("close");
      run.stopWatching?.();
      await run.login.auth?.close();
      const connection = run.connection;
      run.connection = undefined;
      if (connection) await closeConnection(connection);
    },
  };
}
