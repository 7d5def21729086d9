/**
 * The stdio read buffer of an upstream connection and of the gateway's own stdio session, in
 * place of the SDK's. The SDK's buffer
 * throws when a message passes its 10 MB limit, and its transport then closes the connection:
 * one big result (a large file read) killed the server, every call in flight with it, and used
 * up a restart. This one skips the rest of an over-limit line instead, keeping only its first
 * and last bytes, and hands on an error response for the request it answered (its id is near one
 * end of the line), so that one call fails with the reason and the server stays up. Memory stays
 * bounded by the limit. Reading past the limit and budgeting the result would need a streaming
 * JSON parser to stay bounded, for a result the budget would cut to a few KB anyway.
 */

/** The SDK's own limit on one stdio message (STDIO_DEFAULT_MAX_BUFFER_SIZE in both SDKs). */
export const STDIO_MESSAGE_LIMIT = 10 * 1024 * 1024;

/** Set in the `data` of the error response that stands for a skipped over-limit message. */
export const MESSAGE_TOO_LARGE = "toolsift_message_too_large";

/** How much of each end of a skipped line is kept to find its id. */
const KEEP = 512;

/** The id of a JSON-RPC message from its first or last bytes: `{"jsonrpc":"2.0","id":7,…` (most
 * SDKs) or `…,"jsonrpc":"2.0","id":7}` (the TypeScript SDK writes the id last). */
export function idFromEnds(head: string, tail: string): number | string | undefined {
  const id = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
  const match =
    new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${id}`, "u").exec(head) ??
    new RegExp(String.raw`[,{]\s*${id}\s*\}\s*$`, "u").exec(tail);
  const raw = match?.[1];
  if (raw === undefined) return undefined;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}

/** Whether a skipped line was a request (it asked for something), a response (it answered a
 * request) or neither that its first bytes show. */
export type SkippedKind = "request" | "response" | "unknown";

/** The kind of a JSON-RPC message from its first bytes: whichever of its `method`, `result` and
 * `error` keys comes first (every SDK writes them before a large `params` or `result`; a key of
 * the same name nested inside comes after the message's own). */
export function kindFromHead(head: string): SkippedKind {
  const key = /"(method|result|error)"\s*:/u.exec(head)?.[1];
  if (key === undefined) return "unknown";
  return key === "method" ? "request" : "response";
}

/** Puts `buffer` in place of a stdio transport's own read buffer (the v1 and v2 SDKs' client and
 * server transports all read through `_readBuffer`). */
export function replaceReadBuffer(transport: object, buffer: BoundedReadBuffer<unknown>): void {
  const holder = transport as { _readBuffer?: unknown };
  if (holder._readBuffer === undefined) {
    throw new Error(
      "The MCP SDK's stdio transport no longer reads through _readBuffer; toolsift cannot bound its reads. Install the SDK version in toolsift's package.json.",
    );
  }
  holder._readBuffer = buffer;
}

/** Buffers a stdio stream into JSON-RPC messages, skipping any line over `limit` bytes. */
export class BoundedReadBuffer<M> {
  private chunks: Buffer[] = [];
  private size = 0;
  /** While a line over the limit is skipped: its first bytes, last bytes and length so far. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  /** Complete lines (parsed when read, so a bad one is reported as the SDK reports it) and the
   * messages standing for skipped ones. */
  private ready: ({ line: string } | { message: M })[] = [];

  constructor(
    private readonly deserialize: (line: string) => M,
    /** Builds the message that stands for a skipped line (an error response to its id), or
     * says nothing can be done with it (no id: a notification or an unreadable line). */
    private readonly onSkipped: (
      bytes: number,
      id: number | string | undefined,
      kind: SkippedKind,
    ) => M | undefined,
    private readonly limit = STDIO_MESSAGE_LIMIT,
  ) {}

  append(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const piece = newline < 0 ? rest : rest.subarray(0, newline);
      if (this.skipping) this.skip(piece);
      else if (this.size + piece.length > this.limit) this.startSkipping(piece);
      else {
        this.chunks.push(piece);
        this.size += piece.length;
      }
      if (newline < 0) return;
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
  }

  readMessage(): M | null {
    const next = this.ready.shift();
    if (next === undefined) return null;
    return "line" in next ? this.deserialize(next.line) : next.message;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.skipping = undefined;
    this.ready = [];
  }

  private startSkipping(piece: Buffer): void {
    const held = Buffer.concat([...this.chunks, piece]);
    this.chunks = [];
    this.size = 0;
    this.skipping = {
      head: Buffer.from(held.subarray(0, KEEP)),
      tail: Buffer.from(held.subarray(-KEEP)),
      bytes: held.length,
    };
  }

  private skip(piece: Buffer): void {
    const skipping = this.skipping as NonNullable<typeof this.skipping>;
    skipping.bytes += piece.length;
    skipping.tail = Buffer.from(Buffer.concat([skipping.tail, piece]).subarray(-KEEP));
  }

  private endLine(): void {
    const skipping = this.skipping;
    if (skipping) {
      this.skipping = undefined;
      const head = skipping.head.toString("utf8");
      const id = idFromEnds(head, skipping.tail.toString("utf8"));
      const stand = this.onSkipped(skipping.bytes, id, kindFromHead(head));
      if (stand !== undefined) this.ready.push({ message: stand });
      return;
    }
    const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/u, "");
    this.chunks = [];
    this.size = 0;
    if (line.trim() !== "") this.ready.push({ line });
  }
}
