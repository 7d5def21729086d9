/**
 * Bounds what a stdio gateway reads from its client in one message, as reads from upstreams are
 * bounded (upstream/bounded-read-buffer.ts). The SDK's reader closed the session on a message
 * over 10 MB: one oversized tool call ended the client's whole connection. Now a request over
 * the limit is answered with an error naming its size and the limit, and the session stays
 * open; an answer over the limit (the client's reply to a sampling or elicitation request a
 * server made through the gateway) fails that request with the reason, which the server gets.
 */
import type { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { megabytes, type TooLargeData } from "../upstream/bound-stdio-reads.js";
import {
  BoundedReadBuffer,
  MESSAGE_TOO_LARGE,
  replaceReadBuffer,
  STDIO_MESSAGE_LIMIT,
} from "../upstream/bounded-read-buffer.js";

/** Reads the client's messages through a `BoundedReadBuffer`, each line checked as the SDK's
 * own reader checks it. */
export function boundClientReads(transport: StdioServerTransport): void {
  const buffer = new BoundedReadBuffer<JSONRPCMessage>(deserializeMessage, (bytes, id, kind) => {
    if (id === undefined || kind === "unknown") return undefined;
    const data: TooLargeData = { reason: MESSAGE_TOO_LARGE, bytes, limit: STDIO_MESSAGE_LIMIT };
    const size = `${megabytes(bytes)}, over the ${megabytes(STDIO_MESSAGE_LIMIT)} the gateway reads in one stdio message`;
    if (kind === "request") {
      const message = `The request was ${size}, so it was skipped; the session stays open. Send less: smaller arguments, or a path or URL the tool can read instead of the content.`;
      void transport
        .send({ jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidRequest, message, data } })
        .catch(() => undefined);
      return undefined;
    }
    const message = `The client's answer was ${size}, so it was skipped.`;
    return { jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message, data } };
  });
  replaceReadBuffer(transport, buffer as BoundedReadBuffer<unknown>);
}
