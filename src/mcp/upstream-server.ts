/**
 * One upstream MCP server: starts it (stdio or HTTP), lists its tools page by page, routes calls
 * to it with a time limit, notices crashes and restarts it lazily on the next call with a
 * bounded number of attempts and a growing pause between failed ones.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  type ClientRequest,
  ErrorCode,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ServerCapabilities,
  type ServerNotification,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolResult } from "../catalog/index.js";
import type { ElicitationHandler } from "./answer-elicitation.js";
import {
  createUpstreamAuth,
  type UpstreamAuth,
  type UpstreamAuthOptions,
} from "./auth/upstream-auth.js";
import type { UpstreamProgress } from "./call-scope.js";
import {
  type ClientRelay,
  createServerRequestRelay,
  installClientRelay,
  RELAYED_CAPABILITIES,
} from "./client-relay.js";
import { coalesceProgress } from "./coalesce-progress.js";
import { holdResponsesBehindProgress } from "./hold-responses.js";
import { limitLogMessages } from "./limit-log-messages.js";
import { connectModern, type ModernConnection, refusedLegacy } from "./modern-upstream.js";
import { createRelayTracker } from "./relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig, UpstreamState, UpstreamStatus } from "./types.js";
import { upstreamErrorText } from "./upstream-errors.js";
import {
  createUpstreamTransport,
  isTooLarge,
  listAllTools,
  tooLargeText,
} from "./upstream-transport.js";

/** Options of `createUpstreamServer`. */
export interface UpstreamServerOptions {
  name: string;
  config: UpstreamServerConfig;
  log: (entry: MCPLogEntry) => void;
  /** Called with the full tool list after every (re)listing. */
  onTools: (tools: readonly Tool[]) => void;
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
  /** Milliseconds to connect and initialize; default 30,000. */
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

/** Creates an upstream; nothing starts until `start()` or the first call. */
export function createUpstreamServer(options: UpstreamServerOptions): UpstreamServer {
  const { name, config, log } = options;
  const maxRestarts = options.maxRestarts ?? 3;
  const restartQuietMs = options.restartQuietMs ?? 60_000;
  /** When the server last went down or failed to restart: the quiet period counts from it. */
  let lastFailureAt = 0;
  const callTimeoutMs = config.callTimeoutMs ?? 60_000;
  let state: UpstreamState = "idle";
  let client: Client | undefined;
  let transport: Transport | undefined;
  /** Set instead of `client` when the server speaks only the modern era (2026-07-28). */
  let modern: ModernConnection | undefined;
  let starting: Promise<void> | undefined;
  let toolCount = config.tools?.length ?? 0;
  let restarts = 0;
  let nextAttemptAt = 0;
  let lastError: string | undefined;
  const relays = createRelayTracker(options.connectedClients ?? (() => []));
  const serverRequests = createServerRequestRelay(name, relays, {
    onElicitation: options.onElicitation,
    log,
  });
  let progressCalls = 0;
  // one limit per server, across its restarts: a flood of log lines is thinned and counted
  const passLog = limitLogMessages(name, (params) => options.onLogMessage?.(params));

  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const login = createLogin(name, config, options.auth);
  // a login written while the server waits for one brings it up, without a call or a restart
  const stopWatching = login.auth?.onLogin(() => {
    if (state === "needs_login") start().catch(() => undefined);
  });
  const listAll = (connected: Client | ModernConnection) => listAllTools(connected, startTimeoutMs);
  const publish = (tools: readonly Tool[]) => {
    toolCount = tools.length;
    options.onTools(tools);
  };

  const wentDown = () => {
    client = undefined;
    transport = undefined;
    modern = undefined;
    if (state === "closed") return;
    state = "down";
    lastFailureAt = Date.now();
    lastError = "the connection closed (the process exited or the server hung up)";
    log({ level: "warn", server: name, message: `Server went down: ${lastError}.` });
  };

  const retryingLogin = <T>(attempt: () => Promise<T>): Promise<T> =>
    login.auth ? login.auth.retrying(attempt) : attempt();

  /** A login ran out (refresh refused) mid-session: the server waits for a new one. */
  const loggedOut = (needed: string) => {
    if (state !== "ready") return;
    const closing = client;
    client = undefined;
    transport = undefined;
    state = "needs_login";
    lastError = needed;
    log({ level: "warn", server: name, message: needed });
    void closing?.close().catch(() => undefined);
  };

  const relistInto = async (connected: Client | ModernConnection) => {
    log({ level: "info", server: name, message: "tools/list_changed: re-listing." });
    try {
      publish(await listAll(connected));
    } catch (error) {
      log({ level: "warn", server: name, message: `Re-listing failed: ${String(error)}` });
    }
  };

  /** A server that refused the legacy handshake: the v2 client, era negotiated. */
  const connectModernEra = async (): Promise<void> => {
    const connection: ModernConnection = await connectModern({
      config,
      clientInfo: options.clientInfo ?? { name: "toolsift", version: "0.1.0" },
      timeout: startTimeoutMs,
      onServerRequest: serverRequests,
      progressActive: () => progressCalls > 0,
      onToolsChanged: () => void relistInto(connection),
      onClose: () => {
        if (modern === connection) wentDown();
      },
      onStderr: (line) => log({ level: "debug", server: name, message: line }),
      name,
      log,
    });
    modern = connection;
    state = "ready";
    log({
      level: "info",
      server: name,
      message: `Speaks MCP ${connection.version} only; connected with the v2 client.`,
    });
    publish(await listAll(connection));
  };

  const connect = async (useSse: boolean): Promise<void> => {
    const next = new Client(options.clientInfo ?? { name: "toolsift", version: "0.1.0" }, {
      capabilities: RELAYED_CAPABILITIES,
    });
    installClientRelay(next, serverRequests);
    const nextTransport = createUpstreamTransport(name, config, useSse, log, login.auth?.provider);
    next.onclose = () => {
      if (client === next) wentDown();
    };
    next.setNotificationHandler(ToolListChangedNotificationSchema, () => relistInto(next));
    next.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      passLog(notification.params);
    });
    for (const schema of [
      ResourceUpdatedNotificationSchema,
      ResourceListChangedNotificationSchema,
      PromptListChangedNotificationSchema,
    ]) {
      next.setNotificationHandler(schema, (notification) => {
        options.onNotification?.(notification as ServerNotification);
      });
    }
    try {
      await next.connect(nextTransport, { timeout: startTimeoutMs });
    } catch (error) {
      // a half-started process must not outlive the failed attempt
      await nextTransport.close().catch(() => undefined);
      throw error;
    }
    holdResponsesBehindProgress(nextTransport, () => progressCalls > 0);
    client = next;
    transport = nextTransport;
    state = "ready";
    publish(await listAll(next));
  };

  const startOnce = async (): Promise<void> => {
    state = "starting";
    try {
      if (login.problem !== undefined) throw new Error(login.problem);
      await login.auth?.prepare();
      try {
        await retryingLogin(() => connect(!("command" in config) && config.transport === "sse"));
      } catch (error) {
        if (login.auth?.loginNeeded(error) !== undefined) throw error;
        if (refusedLegacy(error)) {
          await connectModernEra();
        } else {
          // servers from before streamable HTTP answer its POST with 4xx: try the legacy transport
          const status = (error as { code?: unknown }).code;
          const legacy = typeof status === "number" && status >= 400 && status < 500;
          if ("command" in config || config.transport !== undefined || !legacy) throw error;
          log({ level: "info", server: name, message: "Streamable HTTP refused; trying SSE." });
          await connect(true);
        }
      }
      lastError = undefined;
      log({ level: "info", server: name, message: `Connected (${toolCount} tools).` });
    } catch (error) {
      const needed = login.auth?.loginNeeded(error);
      state = needed === undefined ? "down" : "needs_login";
      lastError = needed ?? upstreamErrorText(name, config, error, "start");
      await transport?.close().catch(() => undefined);
      await modern?.close().catch(() => undefined);
      client = undefined;
      transport = undefined;
      modern = undefined;
      throw new Error(lastError, { cause: error });
    }
  };

  const start = (): Promise<void> => {
    if (state === "ready") return Promise.resolve();
    if (state === "closed") return Promise.reject(new Error(`Server "${name}" is closed.`));
    starting ??= startOnce().finally(() => {
      starting = undefined;
    });
    return starting;
  };

  /** Brings the server up for a call, or says at once why it cannot. */
  const ensureUp = async (): Promise<string | undefined> => {
    if (state === "ready") return undefined;
    if (state === "closed") return `Server "${name}" is closed; restart the gateway to use it.`;
    if (state === "idle" || state === "starting" || state === "needs_login") {
      try {
        await start();
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    }
    // down: restart lazily, a bounded number of times, pausing longer after each failure; after
    // `maxRestarts` failures, a quiet period, then the count starts again (never down for good)
    if (restarts >= maxRestarts) {
      const quiet = lastFailureAt + restartQuietMs - Date.now();
      if (quiet > 0) {
        return `Server "${name}" is down and ${restarts} restarts failed (last error: ${lastError}); the next attempt is in ${Math.ceil(quiet / 1000)} s. Fix the server (see the gateway log), or try again then.`;
      }
      restarts = 0;
      nextAttemptAt = 0;
    }
    const wait = nextAttemptAt - Date.now();
    if (wait > 0) {
      return `Server "${name}" is down (${lastError}); the next restart attempt is in ${Math.ceil(wait / 1000)} s. Try again then.`;
    }
    restarts += 1;
    log({ level: "info", server: name, message: `Restarting (attempt ${restarts}).` });
    try {
      await start();
      return undefined;
    } catch (error) {
      lastFailureAt = Date.now();
      nextAttemptAt = lastFailureAt + Math.min(500 * 2 ** (restarts - 1), 10_000);
      return (error as Error).message;
    }
  };

  /** Sends one tools/call on whichever connection is up. */
  const sendCall = (
    connected: Client | undefined,
    modernConnection: ModernConnection | undefined,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onProgress: ((progress: UpstreamProgress) => void) | undefined,
  ): Promise<ToolResult> => {
    if (modernConnection) {
      return modernConnection.callTool(tool, args, {
        timeout: callTimeoutMs,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress } : {}),
      });
    }
    return (connected as Client).request(
      { method: "tools/call", params: { name: tool, arguments: args } },
      CallToolResultSchema,
      {
        timeout: callTimeoutMs,
        ...(signal ? { signal } : {}),
        // a server that keeps reporting progress is working, not hung
        ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
      },
    ) as Promise<ToolResult>;
  };

  /** The result a failed call returns: what happened, to which tool, and what to do. */
  const callFailure = (tool: string, error: unknown): ToolResult => {
    const needed = login.auth?.loginNeeded(error);
    if (needed !== undefined) {
      loggedOut(needed);
      return errorResult(needed);
    }
    const tooLarge = isTooLarge(error);
    if (tooLarge) return errorResult(tooLargeText(name, `tools/call "${tool}"`, tooLarge));
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return errorResult(
        `Server "${name}" did not answer tools/call "${tool}" within ${callTimeoutMs / 1000} s. Try again, or raise callTimeoutMs for "${name}" in the config.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return errorResult(
        `Server "${name}" went down during tools/call "${tool}"; the call may or may not have taken effect. The server restarts on the next call.`,
      );
    }
    return errorResult(upstreamErrorText(name, config, error, `tools/call "${tool}"`));
  };

  return {
    name,
    start,
    async call(tool, args, callOptions = {}) {
      const { signal, relay } = callOptions;
      const problem = await ensureUp();
      const connected = client;
      const modernConnection = modern;
      if (problem !== undefined || (!connected && !modernConnection))
        return errorResult(problem ?? `Server "${name}" is down.`);
      // a flood of reports reaches the client thinned; the last one before the result
      const progress = callOptions.onProgress && coalesceProgress(callOptions.onProgress);
      if (progress) progressCalls += 1;
      try {
        const result = await relays.during(
          relay,
          () =>
            retryingLogin(() =>
              sendCall(connected, modernConnection, tool, args, signal, progress?.report),
            ),
          signal,
        );
        restarts = 0;
        return result;
      } catch (error) {
        return callFailure(tool, error);
      } finally {
        progress?.flush();
        if (progress) progressCalls -= 1;
      }
    },
    async request(request, schema, requestOptions = {}) {
      const problem = await ensureUp();
      const connected = client;
      const modernConnection = modern;
      if (problem !== undefined || (!connected && !modernConnection)) {
        throw new McpError(ErrorCode.InternalError, problem ?? `Server "${name}" is down.`);
      }
      const { signal, relay } = requestOptions;
      const timing = { timeout: callTimeoutMs, ...(signal ? { signal } : {}) };
      try {
        return await relays.during(
          relay,
          async () =>
            modernConnection
              ? (schema.parse(await modernConnection.request(request, timing)) as z.infer<
                  typeof schema
                >)
              : (connected as Client).request(request, schema, timing),
          signal,
        );
      } catch (error) {
        const needed = login.auth?.loginNeeded(error);
        if (needed !== undefined) {
          loggedOut(needed);
          throw new McpError(ErrorCode.InternalError, needed);
        }
        // the upstream's own JSON-RPC errors (unknown resource, bad argument) pass through as is
        if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) throw error;
        throw new McpError(
          ErrorCode.InternalError,
          upstreamErrorText(name, config, error, request.method),
        );
      }
    },
    capabilities: () => client?.getServerCapabilities() ?? modern?.capabilities(),
    async relist() {
      await start();
      const connected = client ?? modern;
      if (connected) publish(await listAll(connected));
    },
    status: () => ({
      server: name,
      state,
      tools: toolCount,
      restarts,
      ...(lastError !== undefined && state !== "ready" ? { error: lastError } : {}),
    }),
    client: () => client,
    pid: () =>
      transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined,
    async close() {
      state = "closed";
      stopWatching?.();
      await login.auth?.close();
      const closing = [client, modern];
      client = undefined;
      transport = undefined;
      modern = undefined;
      await Promise.all(closing.map((connection) => connection?.close().catch(() => undefined)));
    },
  };
}

/** The auth of an HTTP upstream, or the config problem that stops it from starting. */
function createLogin(
  name: string,
  config: UpstreamServerConfig,
  options: UpstreamAuthOptions | undefined,
): { auth?: UpstreamAuth; problem?: string } {
  if ("command" in config) return {};
  try {
    const auth = createUpstreamAuth(name, config, options);
    return auth ? { auth } : {};
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
