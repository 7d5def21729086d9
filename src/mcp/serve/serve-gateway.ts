/**
 * Serving the gateway: over stdio (one client, one session) or streamable HTTP on `/mcp` (one
 * session per `Mcp-Session-Id`), loopback-only by default, with an optional bearer token and
 * Host/Origin checks against DNS rebinding.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { ToolsiftError } from "../../errors.js";
import { type Caller, createBearerGuard, type GatewayAuthOptions } from "../auth/bearer-guard.js";
import { isSubscribed } from "../features/session-pass-through.js";
import { replicaCalls } from "../state/call-streams.js";
import { StoreUnavailableError } from "../state/redis-session-store.js";
import { listenToReplicas, type ReplicaState, replicaHooks } from "../state/replica-gateway.js";
import { shareRecorder } from "../state/shared-recorder.js";
import { GatewayHTTPTransport } from "./gateway-http-transport.js";
import { createGatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
import {
  BodyTooLargeError,
  type HttpLimits,
  initializeProblem,
  readBoundedJson,
  resolveHttpLimits,
} from "./http-limits.js";
import type { HttpSession } from "./http-session.js";
import { modernRefusal } from "./modern-refusal.js";
import { probe } from "./probes.js";
import { checkSessionProfiles } from "./session-profiles.js";

/** A running gateway. */
export interface RunningGateway {
  /** `http://host:port/mcp` for HTTP; undefined for stdio. */
  url?: string;
  /** Resolves when the gateway stops (client gone or `close()`). */
  closed: Promise<void>;
  /** Stops serving and closes every session and upstream. */
  close(): Promise<void>;
}

/** Tells every session's client to re-list when the catalog changes (batched per tick), and
 * passes the upstreams' log messages to every session (at the level each session set), with the
 * server as the logger. Returns the unsubscribe function. */
function forwardUpstreamEvents(
  options: GatewaySessionOptions,
  sessions: () => Iterable<{ server: Server; sessionId?: string | undefined }>,
) {
  const stopLogs = options.sift.upstreams.onLogMessage((server, params) => {
    const logger = params.logger === undefined ? server : `${server}/${params.logger}`;
    // the SDK keeps each session's logging level under its transport session id
    for (const { server, sessionId } of sessions()) {
      server.sendLoggingMessage({ ...params, logger }, sessionId).catch(() => undefined);
    }
  });
  // resource and prompt changes: `updated` to the sessions subscribed to the URI, the rest to all
  const stopNotifications = options.sift.upstreams.onNotification((_server, notification) => {
    for (const { server } of sessions()) {
      if (notification.method === "notifications/resources/updated") {
        if (!isSubscribed(server, notification.params.uri)) continue;
        server.sendResourceUpdated(notification.params).catch(() => undefined);
      } else if (notification.method === "notifications/resources/list_changed") {
        server.sendResourceListChanged().catch(() => undefined);
      } else if (notification.method === "notifications/prompts/list_changed") {
        server.sendPromptListChanged().catch(() => undefined);
      }
    }
  });
  let pending = false;
  const stopChanges = options.sift.catalog.onChange(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      for (const { server } of sessions()) server.sendToolListChanged().catch(() => undefined);
    });
  });
  return () => {
    stopLogs();
    stopNotifications();
    stopChanges();
  };
}

/** A close function that runs `steps` once, however often it is called, and a promise that
 * resolves when they have run. */
function closeOnce(steps: () => Promise<void>): Pick<RunningGateway, "closed" | "close"> {
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= steps().finally(finish);
    return closing;
  };
  return { closed, close };
}

/** Serves one client over stdin/stdout; stops when stdin ends. Logs must go to stderr. */
export async function serveStdio(options: GatewaySessionOptions): Promise<RunningGateway> {
  const server = createGatewaySession("stdio", options);
  const transport = new StdioServerTransport();
  const stopAnnouncing = forwardUpstreamEvents(options, () => [{ server }]);
  const { closed, close } = closeOnce(async () => {
    stopAnnouncing();
    process.stdin.off("end", onEnd);
    await server.close().catch(() => undefined);
    await options.sift.close();
  });
  const onEnd = () => void close();
  process.stdin.on("end", onEnd);
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    void close();
  };
  await server.connect(transport);
  return { closed, close };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Options of `serveHttp`. */
export interface ServeHttpOptions extends HttpGatewayOptions {
  /** Default 0 (any free port; read it from `url`). */
  port?: number;
  /** On close, how long calls in flight may take to finish before they are cut (ms); default
   * 10,000. */
  drainMs?: number;
}

function hostOf(header: string): string {
  // "[::1]:8080" → "[::1]", "localhost:8080" → "localhost"
  return header.startsWith("[")
    ? header.slice(0, header.indexOf("]") + 1)
    : (header.split(":")[0] ?? "");
}

/** Why a request must be refused (status and message), or undefined when it may proceed. */
function refusal(
  request: IncomingMessage,
  options: HttpGatewayOptions,
  loopback: boolean,
): [number, string] | undefined {
  if (loopback) {
    // DNS rebinding: a web page may reach 127.0.0.1 under a foreign host name
    const host = hostOf(request.headers.host ?? "");
    if (!LOOPBACK.has(host)) {
      return [403, `Host "${request.headers.host}" is not allowed; use localhost or 127.0.0.1.`];
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      let originHost = "";
      try {
        originHost = new URL(origin).hostname;
      } catch {
        // an unparsable Origin is refused below
      }
      if (!LOOPBACK.has(originHost)) return [403, `Origin "${origin}" is not allowed.`];
    }
  }
  if (options.token !== undefined && request.headers.authorization !== `Bearer ${options.token}`) {
    return [401, "Missing or wrong bearer token; send Authorization: Bearer TOKEN."];
  }
  return undefined;
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, {
    "content-type": "application/json",
    ...(status === 401 ? { "www-authenticate": "Bearer" } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** The streamable-HTTP side of a gateway without its own listener: mount `handle` on `/mcp` of
 * an existing `node:http` server (the inspector does). */
export interface HttpGateway {
  /** Answers one request for the MCP endpoint (Host/Origin/token checks included). */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every client session; the upstreams stay (close `sift` for them). */
  close(): Promise<void>;
  /** Requests other than GET streams being answered now (graceful shutdown waits for them). */
  inFlight(): number;
}

/** Options of `createHttpGateway` (and, with a port, of `serveHttp`); the limits default to
 * `HTTP_LIMIT_DEFAULTS` (4 MiB bodies, 100 sessions, 30 minutes idle). */
export interface HttpGatewayOptions extends GatewaySessionOptions, HttpLimits {
  /** Where the listener is bound; default `127.0.0.1`. Loopback turns on the DNS-rebinding
   * checks; any other address needs `token`. */
  host?: string;
  /** Required as `Authorization: Bearer TOKEN` on every request when set. */
  token?: string;
  /** An identity provider whose JWT access tokens every request needs (`docs/auth.md`); each
   * session belongs to its token's subject. Not with `token`. */
  auth?: GatewayAuthOptions;
  /** State shared with other replicas (`--state redis://…`); pass `state.reveals.revealStore`
   * as the sift's `disclosure.store`. Without it sessions live in this process only. */
  state?: ReplicaState;
}

export type { HttpSession } from "./http-session.js";

/** Closes the sessions idle past `idleMs`, checking often enough to close them within about
 * half that again; the timer never keeps the process alive. Returns the stop function. */
function expireIdle(sessions: Map<string, HttpSession>, idleMs: number): () => void {
  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const entry of [...sessions.values()]) {
        if (entry.active === 0 && now - entry.seen >= idleMs) {
          entry.server.close().catch(() => undefined);
        }
      }
    },
    Math.max(10, Math.min(Math.floor(idleMs / 2), 60_000)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** Throws when the host needs a token it was not given, or a limit is not a positive whole
 * number; returns whether the host is loopback. */
function checkHttpOptions(
  options: Pick<HttpGatewayOptions, "host" | "token" | "auth"> & HttpLimits,
) {
  const host = options.host ?? "127.0.0.1";
  if (options.token !== undefined && options.auth !== undefined) {
    throw new ToolsiftError(
      "invalid_option",
      "Pass one of a shared token (--token, --token-file, TOOLSIFT_TOKEN) and an identity provider (--auth-issuer), not both.",
    );
  }
  if (!LOOPBACK.has(host) && options.token === undefined && options.auth === undefined) {
    throw new ToolsiftError(
      "invalid_option",
      `Serving on ${host} exposes every upstream tool to the network; pass a token (--token-file F, TOOLSIFT_TOKEN or --token), an identity provider (--auth-issuer URL --auth-audience AUD) or serve on 127.0.0.1.`,
    );
  }
  return { loopback: LOOPBACK.has(host), limits: resolveHttpLimits(options) };
}

function addressInUse(host: string, port: number, cause: unknown): ToolsiftError {
  return new ToolsiftError(
    "invalid_option",
    `Cannot listen on ${host}:${port}: ${host}:${port} is in use. Stop the program holding it (e.g. an earlier gateway), or pick another port (toolsift serve --http ${host}:0 takes any free one).`,
    { cause },
  );
}

/** Checks what `serveHttp` would refuse (a non-loopback host without a token, a bad limit, a
 * port in use) without starting anything, so a command can report it before its upstreams
 * start. The port is bound and released at once. */
export async function checkHttpListen(
  options: Pick<ServeHttpOptions, "host" | "port" | "token" | "auth"> & HttpLimits,
): Promise<void> {
  checkHttpOptions(options);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? addressInUse(host, port, error) : error),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** What the HTTP gateway's request steps share: its options, limits and open sessions. */
interface HttpGatewayContext {
  options: HttpGatewayOptions;
  loopback: boolean;
  limits: Required<HttpLimits>;
  sessions: Map<string, HttpSession>;
  hooks: ReturnType<typeof replicaHooks> | undefined;
  /** The recorder, shared through the store when replicas share state. */
  recorder: GatewaySessionOptions["recorder"];
  /** Aborted when the gateway closes: calls still running answer with an error. */
  stopping: AbortController;
  /** With an identity provider: the check of each request's bearer token. */
  guard: ReturnType<typeof createBearerGuard> | undefined;
  /** With replicas: calls answered as resumable streams, resumed on any replica. */
  calls: ReturnType<typeof replicaCalls> | undefined;
}

/** Creates the `/mcp` handler of a gateway, one ToolSift session per MCP session. */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const { loopback, limits } = checkHttpOptions(options);
  const sessions = new Map<string, HttpSession>();
  const { state } = options;
  const stopping = new AbortController();
  const context: HttpGatewayContext = {
    options,
    loopback,
    limits,
    sessions,
    hooks: state
      ? replicaHooks(state, { mode: options.mode ?? "bridge", sift: options.sift })
      : undefined,
    recorder:
      state && options.recorder ? shareRecorder(options.recorder, state.store) : options.recorder,
    stopping,
    guard: options.auth ? createBearerGuard(options.auth) : undefined,
    calls: state ? replicaCalls(state.store, state.calls, sessions, stopping.signal) : undefined,
  };
  if (options.auth) checkSessionProfiles(options.sift, options.auth);
  // every call in flight listens for the stop
  setMaxListeners(0, context.stopping.signal);
  const stopAnnouncing = forwardUpstreamEvents(options, () =>
    [...sessions.entries()].map(([sessionId, entry]) => ({ server: entry.server, sessionId })),
  );
  const stopExpiring = expireIdle(sessions, limits.sessionIdleMs);
  const stopListening = state ? listenToReplicas(state, sessions) : () => undefined;
  return {
    handle: (request, response) =>
      handleHttpRequest(context, request, response).catch((error: unknown) =>
        answerFailure(request, response, error),
      ),
    inFlight: () => [...sessions.values()].reduce((sum, entry) => sum + entry.active, 0),
    close: async () => {
      stopAnnouncing();
      stopExpiring();
      stopListening();
      // calls still running are answered with an error now, while their streams are open
      context.stopping.abort();
      const answered = Date.now() + 2_000;
      while ([...sessions.values()].some((entry) => entry.active > 0) && Date.now() < answered) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(
        [...sessions.values()].map((entry) => entry.server.close().catch(() => undefined)),
      );
      await context.calls?.stop();
    },
  };
}

/** One request to the gateway, in steps: where it goes, whether it may, its body, then its
 * session (an open one, one adopted from another replica, or a new one it initializes). */
async function handleHttpRequest(
  context: HttpGatewayContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // the identity provider's check: metadata, 401 and 403 are answered there
  const caller = context.guard ? await context.guard.admit(request, response) : {};
  if (!caller) return;
  if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") {
    sendError(response, 404, "Not found; the MCP endpoint is /mcp.");
    return;
  }
  const refused = refusal(request, context.options, context.loopback);
  if (refused) {
    sendError(response, ...refused);
    return;
  }
  const body =
    request.method === "POST"
      ? await readBoundedJson(request, context.limits.maxBodyBytes)
      : undefined;
  const id = request.headers["mcp-session-id"];
  // a session another replica created is served here from the store
  const existing =
    typeof id === "string" ? (context.sessions.get(id) ?? (await adopt(context, id))) : undefined;
  if (existing && existing.user !== caller.subject) {
    sendError(response, 403, "This session was opened by another user; initialize a new one.");
  } else if (existing) {
    await answerInSession(context, existing, request, response, body);
  } else if (id !== undefined) {
    sendError(response, 404, "Session not found; initialize a new session.");
  } else {
    await startSession(context, request, response, body, caller);
  }
}

/** Answers a request of an open session, keeping the counts its expiry and shutdown read. */
async function answerInSession(
  { hooks, calls }: HttpGatewayContext,
  entry: HttpSession,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
): Promise<void> {
  entry.seen = Date.now();
  if (await hooks?.before(entry, request, response, body)) return;
  // a client resuming a call stream whose connection broke (its replica may be gone)
  if (calls?.resume(entry, request, response)) return;
  if (request.method === "GET") {
    entry.streams += 1;
    response.once("close", () => {
      entry.streams -= 1;
    });
    await entry.transport.handleRequest(request, response, body);
    return;
  }
  entry.active += 1;
  response.once("close", () => {
    entry.active -= 1;
    entry.seen = Date.now();
  });
  if (request.method === "POST" && entry.transport.answerPost(request, response, body)) return;
  await entry.transport.handleRequest(request, response, body);
  await hooks?.after(entry, request);
}

/** A request without a session: only a valid `initialize` within the session limit opens one. */
async function startSession(
  context: HttpGatewayContext,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  /** With an identity provider: the token's subject (the session is that user's) and the
   * policy profile its claims chose. */
  caller: Caller,
): Promise<void> {
  const modern = modernRefusal(body, request.headers["mcp-protocol-version"]);
  if (modern) {
    response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify(modern));
    return;
  }
  if (request.method !== "POST" || !isInitializeRequest(body)) {
    sendError(response, 400, "No session; send an initialize request first.");
    return;
  }
  const problem = initializeProblem(body);
  if (problem) {
    sendError(response, 400, problem);
    return;
  }
  const { sessions, limits } = context;
  if (sessions.size >= limits.maxSessions) {
    sendError(
      response,
      503,
      `The gateway has ${sessions.size} sessions open, its limit (maxSessions, --max-sessions); close one (DELETE /mcp) or wait for idle ones to expire after ${limits.sessionIdleMs} ms.`,
    );
    return;
  }
  // a store that cannot take the session refuses it now, not on the client's next request
  await context.options.state?.store.ping();
  const entry = await openSession(context, body, caller);
  await answerInSession(context, entry, request, response, body);
}

/** A session's transport and server; `body` is its `initialize` request, or undefined for a
 * session adopted from the store. */
async function openSession(
  context: HttpGatewayContext,
  body: unknown,
  caller: Caller = {},
): Promise<HttpSession> {
  const { options, sessions, hooks } = context;
  const { subject: user, profile } = caller;
  const entry = {
    user,
    profile,
    seen: Date.now(),
    active: 0,
    streams: 0,
    transport: new GatewayHTTPTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: async (sessionId) => {
        sessions.set(sessionId, entry);
        const owner = { ...(user ? { user } : {}), ...(profile ? { profile } : {}) };
        await hooks?.created(sessionId, body, owner);
      },
    }),
  } as HttpSession;
  const { transport } = entry;
  transport.resumable = context.calls?.resumable;
  entry.server = createGatewaySession(() => transport.sessionId ?? "", {
    ...options,
    user: () => entry.user,
    profile: () => entry.profile,
    ...(context.recorder ? { recorder: context.recorder } : {}),
    ...(hooks ? { settle: hooks.settle } : {}),
    stopping: context.stopping.signal,
  });
  transport.onclose = () => {
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return;
    // a duplicate adopted by a concurrent request goes without touching the session
    if (sessions.get(sessionId) !== entry) return;
    sessions.delete(sessionId);
    // reveals, loop budget and stored results go with the session (on this replica)
    options.sift.endSession(sessionId);
    hooks?.ended(sessionId);
  };
  hooks?.wrapSend(entry);
  await entry.server.connect(transport);
  return entry;
}

/** A session this replica does not hold, taken from the store; undefined when there is none. */
async function adopt(context: HttpGatewayContext, id: string): Promise<HttpSession | undefined> {
  const { hooks, sessions, limits } = context;
  if (!hooks || sessions.size >= limits.maxSessions) return undefined;
  const entry = await hooks.adopt(id, () => openSession(context, undefined));
  if (!entry) return undefined;
  const kept = sessions.get(id);
  if (kept && kept !== entry) {
    entry.server.close().catch(() => undefined);
    return kept;
  }
  sessions.set(id, entry);
  return entry;
}

/** Answers a request that failed before anything was written: a store down (503), a body over
 * the limit (413, dropping the connection), anything else (400). */
function answerFailure(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  if (response.headersSent) return;
  if (error instanceof StoreUnavailableError) {
    sendError(response, 503, error.message);
    return;
  }
  if (error instanceof BodyTooLargeError) {
    // the rest of the body is never read: answer, then drop the connection
    response.once("finish", () => request.socket.destroy());
    response.setHeader("connection", "close");
    sendError(response, 413, error.message);
    return;
  }
  sendError(response, 400, `Bad request: ${(error as Error).message}`);
}

/** Serves streamable HTTP on `http://HOST:PORT/mcp`, one ToolSift session per MCP session. */
export async function serveHttp(options: ServeHttpOptions): Promise<RunningGateway> {
  const gateway = createHttpGateway(options);
  const http = createServer((request, response) => {
    if (probe(request, response, options)) return;
    void gateway.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    const host = options.host ?? "127.0.0.1";
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? addressInUse(host, options.port ?? 0, error) : error),
    );
    http.listen(options.port ?? 0, host, () => resolve());
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw error;
  });
  const address = http.address() as AddressInfo;
  const { closed, close } = closeOnce(async () => {
    // graceful: no new connections, then calls in flight get up to drainMs to finish
    http.close();
    const deadline = Date.now() + (options.drainMs ?? 10_000);
    while (gateway.inFlight() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await gateway.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await options.sift.close();
  });
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}/mcp`, closed, close };
}
