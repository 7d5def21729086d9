/**
 * What the HTTP gateway does differently when replicas share a `SessionStore`: it records each
 * new session, re-creates on this replica a session another one created (a transport already
 * initialized under the stored id, a server that knows the stored client), forwards messages
 * for a client whose stream is on another replica over the store's bus, and ends a deleted
 * session on every replica.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SessionRecord } from "./session-store.js";

/** The record of a session being initialized on this replica, read from its `initialize`
 * request (already bounded by `initializeProblem`): it is stored before the answer leaves, so
 * the client's next request finds it on any replica. */
export function sessionRecord(id: string, body: unknown, mode: string): SessionRecord {
  const params = ((body as { params?: Record<string, unknown> }).params ?? {}) as {
    protocolVersion?: unknown;
    capabilities?: unknown;
    clientInfo?: unknown;
  };
  const info = params.clientInfo as SessionRecord["clientInfo"] | undefined;
  const now = Date.now();
  return {
    id,
    protocolVersion: typeof params.protocolVersion === "string" ? params.protocolVersion : "",
    clientCapabilities: (params.capabilities ?? {}) as Record<string, unknown>,
    clientInfo: info ?? { name: "unknown", version: "0" },
    mode,
    createdAt: now,
    lastSeen: now,
  };
}

/**
 * Makes a fresh transport and server serve an existing session: the SDK keeps "initialized" and
 * the session id in the transport, and the client's capabilities in the server, all set only by
 * an `initialize` this replica never saw. They are set here from the stored record (private
 * fields of SDK 1.x: `_initialized`, `_clientCapabilities`, `_clientVersion`), then the
 * server's `oninitialized` runs as after a real handshake.
 */
export function adoptSession(
  transport: StreamableHTTPServerTransport,
  server: Server,
  record: SessionRecord,
): void {
  const web = (transport as unknown as { _webStandardTransport: Record<string, unknown> })
    ._webStandardTransport;
  web.sessionId = record.id;
  web._initialized = true;
  const inner = server as unknown as Record<string, unknown>;
  inner._clientCapabilities = record.clientCapabilities;
  inner._clientVersion = record.clientInfo;
  // once only: the client's own `initialized` may still arrive here
  const initialized = server.oninitialized;
  server.oninitialized = () => undefined;
  initialized?.();
}

/** Whether a session's server waits for an answer to this request id (a sampling, elicitation
 * or roots request it sent): Protocol keeps them in `_responseHandlers`. */
export function awaitsResponse(server: Server, id: unknown): boolean {
  const handlers = (server as unknown as { _responseHandlers?: Map<unknown, unknown> })
    ._responseHandlers;
  return handlers?.has(id) === true || handlers?.has(Number(id)) === true;
}

/** A JSON-RPC body made only of responses (the client answering the server's requests). */
export function responsesOnly(body: unknown): JSONRPCMessage[] | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const all = messages.every(
    (message) =>
      message !== null &&
      typeof message === "object" &&
      !("method" in message) &&
      "id" in message &&
      ("result" in message || "error" in message),
  );
  return all && messages.length > 0 ? (messages as JSONRPCMessage[]) : undefined;
}

/** A notification or request for the client's standalone stream: one without a related request. */
export function forStandaloneStream(
  message: JSONRPCMessage,
  options: { relatedRequestId?: unknown } | undefined,
): boolean {
  return options?.relatedRequestId === undefined && "method" in message;
}
