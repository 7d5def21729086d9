/**
 * `GatewayHTTPTransport`: the SDK's streamable-HTTP server transport with a Node-native path for
 * the request a client sends most, one JSON-RPC request POSTed on an open session. The SDK
 * converts every request and response to web-standard Request/Response objects and answers each
 * POST as an SSE stream; that conversion cost about as much CPU per `tools/call` as the rest of
 * the gateway. Here such a request is handed to the server directly and answered with
 * `application/json` when its response is the only message it produces, or as SSE from the
 * first progress report, log message or relayed request on (the Streamable HTTP spec lets the
 * server choose per request). Anything else (initialize, batches, notifications, GET, DELETE,
 * headers the SDK would refuse) takes the SDK's path unchanged, so its checks and errors stay
 * the one definition of what is valid.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/** How long an answer may go without a byte before it turns into SSE and gets a keep-alive
 * comment, as the SDK's own streams do (ms). */
const KEEP_ALIVE_MS = 15_000;

/** The headers of every SSE answer (a resumed call stream's too). */
export const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `body` is one JSON-RPC request (not `initialize`) that the SDK's schema would take
 * as it is: anything doubtful goes the SDK's way, which answers it with the SDK's error. */
function isPlainRequest(body: unknown): body is JSONRPCRequest {
  if (!isPlainObject(body) || body.jsonrpc !== "2.0") return false;
  if (typeof body.method !== "string" || body.method === "initialize") return false;
  const { id, params } = body;
  if (typeof id !== "string" && !Number.isInteger(id)) return false;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return false;
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  const token = meta.progressToken;
  // the SDK checks the task field's shape; such requests take its path
  if ("io.modelcontextprotocol/related-task" in meta) return false;
  return token === undefined || typeof token === "string" || Number.isInteger(token);
}

function protocolVersion(request: IncomingMessage): string | undefined {
  const version = request.headers["mcp-protocol-version"];
  return typeof version === "string" ? version : undefined;
}

/** Whether the headers are ones the SDK takes without a word (else it answers them). */
function hasPlainHeaders(request: IncomingMessage): boolean {
  const accept = request.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  const type = request.headers["content-type"];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) return false;
  const version = request.headers["mcp-protocol-version"];
  return version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version as string);
}

/** The request's URL as the SDK reports it to handlers; a Host header no URL can hold (only
 * possible off loopback, where Host is not checked) falls back to localhost. */
function requestUrl(request: IncomingMessage): URL {
  const path = request.url ?? "/mcp";
  try {
    return new URL(path, `http://${request.headers.host ?? "localhost"}`);
  } catch {
    return new URL(path, "http://localhost");
  }
}

/** Whether `message` is a JSON-RPC response (the last event of a request's answer). */
export function isResponse(message: JSONRPCMessage): boolean {
  return !("method" in message) && ("result" in message || "error" in message);
}

/** How the calls answered here become resumable streams (replicas sharing a store; see
 * `state/call-streams.ts`): each event carries an id naming the stream, so a client whose stream
 * breaks can ask any replica for the rest with `Last-Event-ID`. */
export interface ResumableCalls {
  /** The stream of a request starting now, or undefined to answer it as before. */
  open(
    sessionId: string,
    request: JSONRPCRequest,
    protocolVersion: string | undefined,
  ): AnswerStream | undefined;
}

/** A resumable answer's stream: its id, and where its events go once the client is gone. */
export interface AnswerStream {
  id: string;
  /** Keeps event `seq` for the client resuming the stream (on any replica). */
  keep(seq: number, message: JSONRPCMessage): void;
}

/** The HTTP response to one request: JSON until something other than the response must be
 * sent, SSE from then on; ends with the response. A resumable answer is SSE from its first byte
 * (a priming event with an id, no data, as the spec's resumable streams start), and once its
 * client connection is gone (or another replica took the stream over) its events are kept
 * instead of written. */
class PostAnswer {
  /** When a byte last went out (or the request came in); drives the keep-alive. */
  quietSince = Date.now();
  private streaming = false;
  private gone = false;
  private finished = false;
  /** Events of the resumable stream so far (the priming event is 0). */
  private seq = 0;

  constructor(
    private readonly response: ServerResponse,
    private readonly sessionId: string,
    readonly stream?: AnswerStream,
  ) {
    response.once("close", () => {
      this.gone = true;
    });
    if (stream) {
      this.startStream();
      this.response.write(`id: ${stream.id}.0\ndata: \n\n`);
    }
  }

  /** Writes `message`; the response ends the answer. */
  write(message: JSONRPCMessage, last: boolean): void {
    if (last) this.finished = true;
    this.seq += 1;
    if (this.gone) {
      this.stream?.keep(this.seq, message);
      return;
    }
    this.quietSince = Date.now();
    const json = JSON.stringify(message);
    if (last && !this.streaming) {
      this.response.writeHead(200, {
        "content-type": "application/json",
        "mcp-session-id": this.sessionId,
      });
      this.response.end(json);
      return;
    }
    this.startStream();
    const id = this.stream ? `id: ${this.stream.id}.${this.seq}\n` : "";
    const event = `${id}event: message\ndata: ${json}\n\n`;
    if (last) this.response.end(event);
    else this.response.write(event);
  }

  /** Another replica holds the client's resumed stream: the events from here on are kept for
   * it, and this response (whose client left) ends. Returns false once the answer was sent. */
  detach(): boolean {
    if (this.finished) return false;
    if (!this.gone) this.response.end();
    this.gone = true;
    return true;
  }

  /** A comment line that keeps proxies from closing a quiet stream. */
  keepAlive(): void {
    if (this.gone) return;
    this.quietSince = Date.now();
    this.startStream();
    this.response.write(": keepalive\n\n");
  }

  /** Ends the answer without a response (the session closed), as the SDK ends its streams. */
  end(): void {
    if (this.gone) return;
    this.startStream();
    this.response.end();
  }

  private startStream(): void {
    if (this.streaming) return;
    this.streaming = true;
    this.response.writeHead(200, { ...SSE_HEADERS, "mcp-session-id": this.sessionId });
  }
}

/** Every answer still waiting for its response, across sessions: one timer sends their
 * keep-alives, so a call costs no timer of its own. */
const waiting = new Set<PostAnswer>();
let keepAliveTimer: NodeJS.Timeout | undefined;

function watchQuiet(answer: PostAnswer): void {
  waiting.add(answer);
  if (keepAliveTimer !== undefined) return;
  keepAliveTimer = setInterval(
    () => {
      const now = Date.now();
      for (const each of waiting) if (now - each.quietSince >= KEEP_ALIVE_MS) each.keepAlive();
    },
    Math.floor(KEEP_ALIVE_MS / 3),
  );
  keepAliveTimer.unref();
}

/** The SDK's streamable-HTTP server transport, answering plain requests itself (see above). */
export class GatewayHTTPTransport extends StreamableHTTPServerTransport {
  private readonly answers = new Map<RequestId, PostAnswer>();
  /** Set by the gateway when replicas share a store: calls answer as resumable streams. */
  resumable: ResumableCalls | undefined;

  /**
   * Answers a POST whose body is one plain request on this (initialized) session and returns
   * true; returns false, having done nothing, for anything the SDK's `handleRequest` must see.
   */
  answerPost(request: IncomingMessage, response: ServerResponse, body: unknown): boolean {
    const sessionId = this.sessionId;
    if (sessionId === undefined || !isPlainRequest(body) || !hasPlainHeaders(request)) {
      return false;
    }
    if (this.answers.has(body.id)) {
      // two requests under one id in flight would swap answers (the SDK routes a response by
      // its id) and a cancel would stop the wrong one: the second is refused, the first runs on
      const message = `Request id ${JSON.stringify(body.id)} is already in use by a request of this session that has not been answered; give each request in flight its own id (JSON-RPC).`;
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": sessionId });
      response.end(
        JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32600, message } }),
      );
      return true;
    }
    const answer = new PostAnswer(
      response,
      sessionId,
      this.resumable?.open(sessionId, body, protocolVersion(request)),
    );
    this.answers.set(body.id, answer);
    watchQuiet(answer);
    const authInfo = (request as IncomingMessage & { auth?: AuthInfo }).auth;
    const url = requestUrl(request);
    const requestInfo = { headers: request.headers, url };
    this.onmessage?.(body, authInfo ? { authInfo, requestInfo } : { requestInfo });
    return true;
  }

  /** Hands the rest of call stream `stream` to another replica (the client resumed it there);
   * false when no call of that stream is waiting for its answer here. */
  detachCall(stream: string): boolean {
    for (const answer of this.answers.values()) {
      if (answer.stream?.id === stream) return answer.detach();
    }
    return false;
  }

  override async send(
    message: JSONRPCMessage,
    options?: { relatedRequestId?: RequestId },
  ): Promise<void> {
    const last = isResponse(message);
    const id = last ? (message as { id: RequestId }).id : options?.relatedRequestId;
    const answer = id === undefined ? undefined : this.answers.get(id);
    if (answer === undefined) return super.send(message, options);
    if (last) {
      this.answers.delete(id as RequestId);
      waiting.delete(answer);
    }
    answer.write(message, last);
  }

  override async close(): Promise<void> {
    for (const answer of this.answers.values()) {
      waiting.delete(answer);
      answer.end();
    }
    this.answers.clear();
    return super.close();
  }
}
