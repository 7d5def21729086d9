/**
 * One request to the HTTP gateway's `/mcp`, in steps: the identity provider's check, where it
 * goes, whether its Host/Origin/token may, its body, then its session (an open one, one adopted
 * from another replica, or a new one its `initialize` opens); and the answer to a request that
 * failed before anything was written.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Caller, createBearerGuard } from "../auth/bearer-guard.js";
import type { replicaCalls } from "../state/call-streams.js";
import { StoreUnavailableError } from "../state/redis-session-store.js";
import type { replicaHooks } from "../state/replica-gateway.js";
import { GatewayHTTPTransport } from "./gateway-http-transport.js";
import { createGatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
import { type HttpGatewayOptions, httpRefusal } from "./http-gateway-options.js";
import {
  BodyTooLargeError,
  type HttpLimits,
  initializeProblem,
  readBoundedJson,
} from "./http-limits.js";
import type { HttpSession } from "./http-session.js";
import { modernRefusal } from "./modern-refusal.js";

/** What the HTTP gateway's request steps share: its options, limits and open sessions. */
export interface HttpGatewayContext {
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

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, {
    "content-type": "application/json",
    ...(status === 401 ? { "www-authenticate": "Bearer" } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** One request to the gateway, in steps: where it goes, whether it may, its body, then its
 * session (an open one, one adopted from another replica, or a new one it initializes). */
export async function handleHttpRequest(
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
  const refused = httpRefusal(request, context.options, context.loopback);
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
export function answerFailure(
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
): void {
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
