/**
 * One upstream MCP server: starts it (stdio or HTTP), lists its tools page by page, routes calls
 * to it with a time limit, notices crashes and restarts it lazily on the next call with a
 * bounded number of attempts and a growing pause between failed ones. Its life is the state
 * machine of upstream-state.ts; how a connection opens is upstream-connect.ts, when a restart
 * may be tried restart-gate.ts.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  type ClientRequest,
  ErrorCode,
  type LoggingMessageNotification,
  McpError,
  type ServerCapabilities,
  type ServerNotification,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolResult } from "../../catalog/index.js";
import {
  createUpstreamAuth,
  type UpstreamAuth,
  type UpstreamAuthOptions,
} from "../auth/upstream-auth.js";
import type { ElicitationHandler } from "../relay/answer-elicitation.js";
import type { UpstreamProgress } from "../relay/call-scope.js";
import { createServerRequestRelay } from "../relay/client-relay.js";
import { type ClientRelay, createRelayTracker, type RelayTracker } from "../relay/relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig, UpstreamStatus } from "../types.js";
import { isTooLarge, tooLargeText } from "./bound-stdio-reads.js";
import { coalesceProgress } from "./coalesce-progress.js";
import { limitLogMessages } from "./limit-log-messages.js";
import { createRestartGate, type RestartGate } from "./restart-gate.js";
import {
  type ConnectHooks,
  closeConnection,
  openConnection,
  pidOf,
  sdkOf,
  type UpstreamConnection,
} from "./upstream-connect.js";
import { upstreamErrorText } from "./upstream-errors.js";
import { createUpstreamLife, type UpstreamLife } from "./upstream-state.js";
import { listAllTools } from "./upstream-transport.js";

/** One settled start of an upstream: which kind, whether it came up, and how long it took. */
export interface UpstreamStart {
  kind: "start" | "restart" | "login";
  ok: boolean;
  durationMs: number;
}

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
    options?: {
      signal?: AbortSignal;
      onProgress?: (progress: UpstreamProgress) => void;
      /** The client session that answers the server's sampling/elicitation/roots meanwhile. */
      relay?: ClientRelay;
      /** Told why the gateway could not get an answer (`upstream_unavailable`,
       * `upstream_timeout`, `upstream_closed`, `needs_login`, `result_too_large`,
       * `upstream_error`); an `isError` result the tool itself sent is not a failure here. */
      onFailure?: (code: string) => void;
    },
  ): Promise<ToolResult>;
  /** Sends any other request (resources, prompts, completion); failures throw `McpError`s
   * naming the server. */
  request<S extends z.ZodType>(
    request: ClientRequest,
    schema: S,
    options?: { signal?: AbortSignal; relay?: ClientRelay },
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

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Everything one upstream knows while it runs; changed only by the functions below. */
interface UpstreamRun {
  readonly name: string;
  readonly config: UpstreamServerConfig;
  readonly options: UpstreamServerOptions;
  readonly log: (entry: MCPLogEntry) => void;
  readonly life: UpstreamLife;
  readonly gate: RestartGate;
  readonly relays: RelayTracker;
  readonly hooks: Omit<ConnectHooks, "opened">;
  readonly callTimeoutMs: number;
  readonly startTimeoutMs: number;
  /** The OAuth of an HTTP server, or the config problem that stops it from starting. */
  readonly login: Login;
  /** Stops watching the token store for a login. */
  stopWatching: (() => void) | undefined;
  /** The open connection: set from the handshake on (so a listing can read its instructions). */
  connection: UpstreamConnection | undefined;
  /** The start under way, which concurrent callers share. */
  starting: Promise<void> | undefined;
  toolCount: number;
  lastError: string | undefined;
  /** Calls in flight that want progress (see `holdResponsesBehindProgress`). */
  progressCalls: number;
  /** The connection whose first `list_changed` was logged at info level. */
  announcedFor: UpstreamConnection | undefined;
}

/** The auth of an HTTP upstream, or the config problem that stops it from starting. */
interface Login {
  auth?: UpstreamAuth;
  problem?: string;
}

function createLogin(
  name: string,
  config: UpstreamServerConfig,
  options: UpstreamAuthOptions | undefined,
): Login {
  if ("command" in config) return {};
  try {
    const auth = createUpstreamAuth(name, config, options);
    return auth ? { auth } : {};
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Runs `attempt`, finishing an interactive login it started and running it once more. */
const retryingLogin = <T>(run: UpstreamRun, attempt: () => Promise<T>): Promise<T> =>
  run.login.auth ? run.login.auth.retrying(attempt) : attempt();

/** A login ran out (refresh refused) mid-session: the server waits for a new one. */
function loggedOut(run: UpstreamRun, needed: string): void {
  if (run.life.state !== "ready") return;
  const connection = run.connection;
  run.connection = undefined;
  run.life.advance("needsLogin");
  run.lastError = needed;
  run.log({ level: "warn", server: run.name, message: needed });
  if (connection) void closeConnection(connection);
}

const publish = (run: UpstreamRun, tools: readonly Tool[]) => {
  run.toolCount = tools.length;
  run.options.onTools(tools);
};

/** The connection closed under a ready server: it is down until the next call restarts it. */
function connectionLost(run: UpstreamRun, connection: UpstreamConnection): void {
  if (run.connection !== connection) return;
  run.connection = undefined;
  // during a start the listing fails on its own and the start says why
  if (!run.life.can("lost")) return;
  run.life.advance("lost");
  run.gate.failed(false);
  run.lastError = "the connection closed (the process exited or the server hung up)";
  run.log({ level: "warn", server: run.name, message: `Server went down: ${run.lastError}.` });
}

/** Every page of the server's tools, within its start limit per page; a cut is a warning. */
const listFrom = (run: UpstreamRun, connected: Parameters<typeof listAllTools>[0]) =>
  listAllTools(connected, run.startTimeoutMs, (message) =>
    run.log({ level: "warn", server: run.name, message }),
  );

// servers announce list_changed several times as they start: said once per connection, the
// rest at debug level, so a start logs one line and not four
async function relistInto(run: UpstreamRun, connection: UpstreamConnection): Promise<void> {
  const level = run.announcedFor === connection ? "debug" : "info";
  run.announcedFor = connection;
  run.log({ level, server: run.name, message: "tools/list_changed: re-listing." });
  try {
    publish(run, await listFrom(run, sdkOf(connection)));
  } catch (error) {
    run.log({ level: "warn", server: run.name, message: `Re-listing failed: ${String(error)}` });
  }
}

/** Connects and lists every page, all within one limit: a slow pager cannot stretch it. */
async function connectAndList(run: UpstreamRun): Promise<void> {
  const opened: (() => Promise<void>)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error("start timeout"), {
            code: "start_timeout",
            limitMs: run.startTimeoutMs,
          }),
        ),
      run.startTimeoutMs,
    );
  });
  const work = (async () => {
    const connection = await openConnection({
      ...run.hooks,
      opened: (close) => opened.push(close),
    });
    run.connection = connection;
    // a step-up (401 on tools/list) finishes an interactive login too, like the handshake's
    const list = () => listFrom(run, sdkOf(connection));
    publish(run, await retryingLogin(run, list));
  })();
  try {
    await Promise.race([work, limit]);
  } catch (error) {
    run.connection = undefined;
    // a half-started process must not outlive the failed (or abandoned) attempt
    await Promise.all(opened.map((close) => close().catch(() => undefined)));
    work.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One start (first or restart): `starting`/`restarting` → `ready`, or `down` with the reason. */
async function startOnce(run: UpstreamRun, event: "start" | "restart" | "loggedIn"): Promise<void> {
  const began = performance.now();
  const settled = (ok: boolean) =>
    run.options.onStarted?.({
      kind: event === "loggedIn" ? "login" : event,
      ok,
      durationMs: performance.now() - began,
    });
  try {
    await startSteps(run, event);
  } catch (error) {
    // a start cut short by the gateway closing is no failure of the server's
    if (run.life.state !== "closed") settled(false);
    throw error;
  }
  settled(true);
}

/** The work of one start, from the state change to `ready` (or the reason it failed). */
async function startSteps(run: UpstreamRun, event: "start" | "restart" | "loggedIn") {
  run.life.advance(event);
  try {
    if (run.login.problem !== undefined) throw new Error(run.login.problem);
    await run.login.auth?.prepare();
    await connectAndList(run);
  } catch (error) {
    if (run.life.state === "closed") throw new Error(`Server "${run.name}" is closed.`);
    const needed = run.login.auth?.loginNeeded(error);
    run.lastError = needed ?? upstreamErrorText(run.name, run.config, error, "start");
    // no restart brings back a server that needs a login: a login does (`loggedIn`)
    run.life.advance(needed === undefined ? "failed" : "needsLogin");
    throw new Error(run.lastError, { cause: error });
  }
  if (run.life.state === "closed") {
    // closed while starting: the new connection goes too
    const connection = run.connection;
    run.connection = undefined;
    if (connection) await closeConnection(connection);
    throw new Error(`Server "${run.name}" is closed.`);
  }
  run.life.advance("connected");
  run.lastError = undefined;
  run.log({ level: "info", server: run.name, message: `Connected (${run.toolCount} tools).` });
}

/** Starts the server unless it is up or a start is under way (which the caller then shares). */
function start(run: UpstreamRun): Promise<void> {
  const { state } = run.life;
  if (state === "ready") return Promise.resolve();
  if (state === "closed") return Promise.reject(new Error(`Server "${run.name}" is closed.`));
  // in needs_login a start looks for a login again (one may be stored before the watcher sees it)
  const event = state === "down" ? "restart" : state === "needs_login" ? "loggedIn" : "start";
  run.starting ??= startOnce(run, event).finally(() => {
    run.starting = undefined;
  });
  return run.starting;
}

/** Brings the server up for a call, or says at once why it cannot. */
async function ensureUp(run: UpstreamRun): Promise<string | undefined> {
  const { state } = run.life;
  if (state === "ready") return undefined;
  if (state === "closed") return `Server "${run.name}" is closed; restart the gateway to use it.`;
  if (state === "down" && !run.starting) {
    const refusal = run.gate.refusal(run.lastError);
    if (refusal !== undefined) return `Server "${run.name}" ${refusal}`;
    const attempt = run.gate.attempt();
    run.log({ level: "info", server: run.name, message: `Restarting (attempt ${attempt}).` });
    try {
      await start(run);
      return undefined;
    } catch (error) {
      run.gate.failed(true);
      return (error as Error).message;
    }
  }
  try {
    await start(run);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Sends one tools/call on whichever connection is up. */
function sendCall(
  run: UpstreamRun,
  connection: UpstreamConnection,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onProgress: ((progress: UpstreamProgress) => void) | undefined,
): Promise<ToolResult> {
  const timeout = run.callTimeoutMs;
  if (connection.kind === "modern") {
    return connection.modern.callTool(tool, args, {
      timeout,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
  }
  return connection.client.request(
    { method: "tools/call", params: { name: tool, arguments: args } },
    CallToolResultSchema,
    {
      timeout,
      ...(signal ? { signal } : {}),
      // a server that keeps reporting progress is working, not hung
      ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
    },
  ) as Promise<ToolResult>;
}

/** The result a failed call returns: what happened, to which tool, and what to do. */
function callFailure(
  run: UpstreamRun,
  tool: string,
  error: unknown,
  onFailure: (code: string) => void = () => undefined,
): ToolResult {
  const { name } = run;
  const needed = run.login.auth?.loginNeeded(error);
  if (needed !== undefined) {
    loggedOut(run, needed);
    onFailure("needs_login");
    return errorResult(needed);
  }
  const tooLarge = isTooLarge(error);
  if (tooLarge) {
    onFailure("result_too_large");
    return errorResult(tooLargeText(name, `tools/call "${tool}"`, tooLarge));
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    onFailure("upstream_timeout");
    return errorResult(
      `Server "${name}" did not answer tools/call "${tool}" within ${run.callTimeoutMs / 1000} s. Try again, or raise callTimeoutMs for "${name}" in the config.`,
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    onFailure("upstream_closed");
    return errorResult(
      `Server "${name}" went down during tools/call "${tool}"; the call may or may not have taken effect. The server restarts on the next call.`,
    );
  }
  onFailure("upstream_error");
  return errorResult(upstreamErrorText(name, run.config, error, `tools/call "${tool}"`));
}

type CallOptions = Parameters<UpstreamServer["call"]>[2];

async function callTool(
  run: UpstreamRun,
  tool: string,
  args: Record<string, unknown>,
  callOptions: NonNullable<CallOptions>,
): Promise<ToolResult> {
  const { signal, relay } = callOptions;
  const problem = await ensureUp(run);
  const connection = run.connection;
  if (problem !== undefined || !connection) {
    callOptions.onFailure?.("upstream_unavailable");
    return errorResult(problem ?? `Server "${run.name}" is down.`);
  }
  // a flood of reports reaches the client thinned; the last one before the result
  const progress = callOptions.onProgress && coalesceProgress(callOptions.onProgress);
  if (progress) run.progressCalls += 1;
  try {
    const result = await run.relays.during(
      relay,
      () =>
        retryingLogin(run, () => sendCall(run, connection, tool, args, signal, progress?.report)),
      signal,
    );
    run.gate.succeeded();
    return result;
  } catch (error) {
    return callFailure(run, tool, error, callOptions.onFailure);
  } finally {
    progress?.flush();
    if (progress) run.progressCalls -= 1;
  }
}

async function sendRequest<S extends z.ZodType>(
  run: UpstreamRun,
  request: ClientRequest,
  schema: S,
  requestOptions: { signal?: AbortSignal; relay?: ClientRelay },
): Promise<z.infer<S>> {
  const problem = await ensureUp(run);
  const connection = run.connection;
  if (problem !== undefined || !connection) {
    throw new McpError(ErrorCode.InternalError, problem ?? `Server "${run.name}" is down.`);
  }
  const { signal, relay } = requestOptions;
  const timing = { timeout: run.callTimeoutMs, ...(signal ? { signal } : {}) };
  try {
    return await run.relays.during(
      relay,
      async () =>
        connection.kind === "modern"
          ? (schema.parse(await connection.modern.request(request, timing)) as z.infer<S>)
          : connection.client.request(request, schema, timing),
      signal,
    );
  } catch (error) {
    const needed = run.login.auth?.loginNeeded(error);
    if (needed !== undefined) {
      loggedOut(run, needed);
      throw new McpError(ErrorCode.InternalError, needed);
    }
    // the upstream's own JSON-RPC errors (unknown resource, bad argument) pass through as is
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) throw error;
    throw new McpError(
      ErrorCode.InternalError,
      upstreamErrorText(run.name, run.config, error, request.method),
    );
  }
}

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
    options,
    log,
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
  };
  // a login written while the server waits for one brings it up, without a call or a restart
  run.stopWatching = login.auth?.onLogin(() => {
    if (run.life.state === "needs_login") start(run).catch(() => undefined);
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
    start: () => start(run),
    call: (tool, args, callOptions = {}) => callTool(run, tool, args, callOptions),
    request: (request, schema, requestOptions = {}) =>
      sendRequest(run, request, schema, requestOptions),
    capabilities: () => capabilitiesOf(run.connection),
    instructions: () =>
      run.connection?.kind === "v1" ? run.connection.client.getInstructions() : undefined,
    async relist() {
      await start(run);
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
