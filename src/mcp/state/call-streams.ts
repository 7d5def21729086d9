/**
 * Calls that outlive the client's connection to their replica. When replicas share a store, a
 * `tools/call` is answered as a resumable SSE stream whose event ids name the replica running
 * the call (the owner), the request id and the tool. If the stream breaks — the owner was
 * killed, or a proxy dropped the connection — the MCP client reconnects with `GET` and
 * `Last-Event-ID`, which the balancer may send to any replica. That replica replays what the
 * owner kept for the stream, then relays the rest from the owner over the store's bus; if the
 * owner's heartbeat in the store lapses, it answers the call with an error result saying so.
 * Nothing is stored per call while its client stays connected: events are kept only once the
 * connection is gone.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isResponse, type ResumableCalls, SSE_HEADERS } from "../serve/gateway-http-transport.js";
import type { HttpSession } from "../serve/http-session.js";
import type { SessionStore, StateMessage } from "./session-store.js";

/** Timing of the replicas' heartbeats (ms). */
export interface CallStreamOptions {
  /** How often a replica marks itself live in the store; default 1,000. */
  beatMs?: number;
  /** How long a mark lasts: a replica silent this long is taken for dead; default 5,000. Keep it
   * well above the longest event-loop stall a busy replica may have. */
  deadAfterMs?: number;
}

export const CALL_STREAM_DEFAULTS: Required<CallStreamOptions> = {
  beatMs: 1_000,
  deadAfterMs: 5_000,
};

/** Bytes of events one stream may keep (notifications past it are dropped; a response past it
 * is replaced by an error result saying so). */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;
/** The first protocol version whose clients take an SSE event without data (the priming event). */
const PRIMING_VERSION = "2025-11-25";
const PREFIX = "c1-";
const MAX_EVENT_ID_LENGTH = 1_024;
/** How long a resumed stream may go quiet before it gets a keep-alive comment (ms), as the
 * gateway's other streams. */
const KEEP_ALIVE_MS = 15_000;

/** Bus messages about call streams. */
const CALL_EVENT = "call-event";
const CALL_RESUMED = "call-resumed";
const CALL_UNKNOWN = "call-unknown";

/** What a stream id says about its call. */
export interface CallStreamFacts {
  /** The replica running the call (`SessionStore.replica`). */
  owner: string;
  request: RequestId;
  tool: string;
}

/** One kept event of a stream. */
interface KeptEvent {
  seq: number;
  message: JSONRPCMessage;
}

let streamCount = 0;

/** A new stream id naming the call (the count keeps two calls with one request id apart). */
export function callStreamId(facts: CallStreamFacts): string {
  streamCount += 1;
  const json = JSON.stringify([facts.owner, streamCount, facts.request, facts.tool.slice(0, 128)]);
  return `${PREFIX}${Buffer.from(json).toString("base64url")}`;
}

/** The stream, its call and the last event seen, from a `Last-Event-ID` this gateway wrote;
 * undefined for any other value (the SDK's path answers it). */
export function parseEventId(
  text: string,
): { stream: string; facts: CallStreamFacts; seq: number } | undefined {
  if (!text.startsWith(PREFIX) || text.length > MAX_EVENT_ID_LENGTH) return undefined;
  const dot = text.lastIndexOf(".");
  const stream = text.slice(0, dot);
  const seq = Number(text.slice(dot + 1));
  if (dot < 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(stream.slice(PREFIX.length), "base64url").toString());
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 4) return undefined;
  const [owner, , request, tool] = parts as unknown[];
  const validRequest = typeof request === "string" || Number.isSafeInteger(request);
  if (typeof owner !== "string" || typeof tool !== "string" || !validRequest) return undefined;
  return { stream, facts: { owner, request: request as RequestId, tool }, seq };
}

/** The error result that ends a resumed call its owner cannot finish. */
function failedCall(facts: CallStreamFacts, why: "dead" | "lost"): JSONRPCMessage {
  const text =
    why === "dead"
      ? `The gateway replica running "${facts.tool}" stopped answering (it was killed or lost) before the call finished; whether it took effect upstream is unknown. Check, then call it again: the session goes on with the gateway's other replicas.`
      : `The gateway replica running "${facts.tool}" no longer holds the call, and its answer did not reach the client (the connection broke as it was sent); whether it took effect upstream is unknown. Check, then call it again.`;
  return {
    jsonrpc: "2.0",
    id: facts.request,
    result: { content: [{ type: "text", text }], isError: true },
  };
}

/** Marks this replica live in the store now and every `beatMs`; returns the stop, which
 * removes the mark (a replica stopping on purpose is known gone at once). */
export function startHeartbeat(store: SessionStore, options: Required<CallStreamOptions>) {
  const beat = () => store.markLive(store.replica, options.deadAfterMs).catch(() => undefined);
  void beat();
  const timer = setInterval(beat, options.beatMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await store.markGone(store.replica).catch(() => undefined);
  };
}

/** The owner's side: opens resumable streams for calls and keeps the events of streams whose
 * client is gone (in the store, and on the bus for a replica already resuming it). */
export function ownCallStreams(store: SessionStore): ResumableCalls & {
  /** Resolves once the events kept so far for `stream` are stored and published. */
  pending(stream: string): Promise<void> | undefined;
} {
  const chains = new Map<string, Promise<void>>();
  /** Stores and publishes one kept event after the stream's earlier ones. */
  const keep = (sessionId: string, stream: string, event: KeptEvent) => {
    const next = (chains.get(stream) ?? Promise.resolve())
      .then(async () => {
        await store.putCallEvent(sessionId, stream, event);
        await store.publish({ target: sessionId, kind: CALL_EVENT, payload: { stream, ...event } });
      })
      .catch(() => undefined);
    chains.set(stream, next);
    void next.then(() => {
      if (chains.get(stream) === next) chains.delete(stream);
    });
  };
  return {
    open: (sessionId, request: JSONRPCRequest, version) => {
      const name = (request.params as { name?: unknown } | undefined)?.name;
      if (request.method !== "tools/call" || typeof name !== "string") return undefined;
      if (version === undefined || version < PRIMING_VERSION) return undefined;
      const id = callStreamId({ owner: store.replica, request: request.id, tool: name });
      let bytes = 0;
      return {
        id,
        keep: (seq, message) => {
          const size = JSON.stringify(message).length;
          if (bytes + size <= MAX_KEPT_BYTES) {
            bytes += size;
            keep(sessionId, id, { seq, message });
          } else if (isResponse(message)) {
            keep(sessionId, id, { seq, message: tooLarge(message) });
          }
        },
      };
    },
    pending: (stream) => chains.get(stream),
  };
}

/** A response too large to keep, as an error result naming the limit. */
function tooLarge(message: JSONRPCMessage): JSONRPCMessage {
  const text = `The call's answer was larger than the ${MAX_KEPT_BYTES} bytes a resumed stream keeps, and the client's connection broke before it was sent; call it again.`;
  return {
    jsonrpc: "2.0",
    id: (message as { id: RequestId }).id,
    result: { content: [{ type: "text", text }], isError: true },
  };
}

/** The owner's answer to a replica resuming one of its streams: hand the call over, or say it
 * is not here (its answer went out on the broken connection, or the owner restarted). */
export function listenForResumes(
  store: SessionStore,
  owned: ReturnType<typeof ownCallStreams>,
  sessions: Map<string, HttpSession>,
): () => void {
  return store.subscribe((message: StateMessage) => {
    if (message.kind !== CALL_RESUMED) return;
    const stream = (message.payload as { stream?: unknown } | undefined)?.stream;
    if (typeof stream !== "string") return;
    const parsed = parseEventId(`${stream}.0`);
    if (parsed?.facts.owner !== store.replica) return;
    if (sessions.get(message.target)?.transport.detachCall(stream)) return;
    // events kept for it are on their way (the response among them): those answer the client
    if (owned.pending(stream)) return;
    store
      .publish({ target: message.target, kind: CALL_UNKNOWN, payload: { stream } })
      .catch(() => undefined);
  });
}

/** A `GET` resuming one of our call streams: answers it as SSE with the rest of the call and
 * returns true; returns false for any other request (the SDK's path answers it). */
export function resumeCallStream(
  context: { store: SessionStore; options: Required<CallStreamOptions>; stopping: AbortSignal },
  sessionId: string,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const header = request.headers["last-event-id"];
  const resumed = typeof header === "string" ? parseEventId(header) : undefined;
  if (request.method !== "GET" || resumed === undefined) return false;
  const { store, options, stopping } = context;
  const { stream, facts } = resumed;
  let last = resumed.seq;
  let done = false;
  let quietSince = Date.now();
  response.writeHead(200, { ...SSE_HEADERS, "mcp-session-id": sessionId });
  const deliver = (event: KeptEvent) => {
    if (done || event.seq <= last) return;
    last = event.seq;
    quietSince = Date.now();
    const data = `id: ${stream}.${event.seq}\nevent: message\ndata: ${JSON.stringify(event.message)}\n\n`;
    if (!isResponse(event.message)) {
      response.write(data);
      return;
    }
    finish();
    response.end(data);
  };
  const fail = (why: "dead" | "lost") =>
    deliver({ seq: last + 1, message: failedCall(facts, why) });
  const unsubscribe = store.subscribe((message) => {
    const payload = message.payload as { stream?: unknown } | undefined;
    if (message.target !== sessionId || payload?.stream !== stream) return;
    if (message.kind === CALL_EVENT) deliver(payload as unknown as KeptEvent);
    else if (message.kind === CALL_UNKNOWN) fail("lost");
  });
  // a comment now and then keeps proxies from closing the stream while a long call runs
  const keepAlive = () => {
    if (done || Date.now() - quietSince < KEEP_ALIVE_MS) return;
    quietSince = Date.now();
    response.write(": keepalive\n\n");
  };
  const watch = watchOwner(store, facts.owner, options, () => fail("dead"), keepAlive);
  // the replica stopping ends the stream without an answer: the client resumes on another
  const onStop = () => {
    finish();
    response.end();
  };
  function finish() {
    done = true;
    unsubscribe();
    watch.stop();
    stopping.removeEventListener("abort", onStop);
  }
  response.once("close", finish);
  if (stopping.aborted) onStop();
  stopping.addEventListener("abort", onStop, { once: true });
  void replayKept(store, sessionId, stream, deliver).then(() => {
    if (done) return;
    store
      .publish({ target: sessionId, kind: CALL_RESUMED, payload: { stream } })
      .catch(() => undefined);
    watch.start();
  });
  return true;
}

/** Delivers the events the owner kept for `stream` (none when the store cannot be read: the
 * owner's answers still come over the bus, its death through the heartbeat). */
async function replayKept(
  store: SessionStore,
  sessionId: string,
  stream: string,
  deliver: (event: KeptEvent) => void,
): Promise<void> {
  const kept = await store.callEvents(sessionId, stream).catch(() => []);
  for (const event of kept as KeptEvent[]) deliver(event);
}

/** Checks every `beatMs` whether `owner` is live; calls `dead` after two misses in a row (one
 * could be a store that just restarted empty, before the owner's next beat). */
function watchOwner(
  store: SessionStore,
  owner: string,
  options: Required<CallStreamOptions>,
  dead: () => void,
  /** Called on every check (the stream's keep-alive). */
  tick: () => void,
) {
  let timer: NodeJS.Timeout | undefined;
  let misses = 0;
  let checking = false;
  const check = async () => {
    tick();
    if (checking) return;
    checking = true;
    // a store that does not answer gives no verdict
    const live = await store.isLive(owner).catch(() => true);
    checking = false;
    misses = live ? 0 : misses + 1;
    if (misses >= 2 && timer !== undefined) dead();
  };
  return {
    start: () => {
      timer = setInterval(() => void check(), options.beatMs);
      timer.unref();
      void check();
    },
    stop: () => {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

/** Resumable calls for a gateway whose replicas share `store`: what its sessions' transports
 * use (`resumable`), the `GET` that resumes a stream (`resume`), and `stop` for its close. */
export function replicaCalls(
  store: SessionStore,
  options: Required<CallStreamOptions>,
  sessions: Map<string, HttpSession>,
  stopping: AbortSignal,
) {
  const owned = ownCallStreams(store);
  const stopBeating = startHeartbeat(store, options);
  const stopListening = listenForResumes(store, owned, sessions);
  return {
    resumable: owned as ResumableCalls,
    resume: (entry: HttpSession, request: IncomingMessage, response: ServerResponse) => {
      const id = entry.transport.sessionId;
      return (
        id !== undefined && resumeCallStream({ store, options, stopping }, id, request, response)
      );
    },
    stop: async () => {
      stopListening();
      await stopBeating();
    },
  };
}
