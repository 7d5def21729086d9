/**
 * Bounds what a stdio upstream connection reads in one message (see bounded-read-buffer.ts), and
 * says so when an answer was skipped: the log line, the stand-in error response for the request
 * it answered, and the text a model reads. Shared by the v1 transport and the modern v2 one.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { MCPLogEntry } from "../types.js";
import {
  BoundedReadBuffer,
  MESSAGE_TOO_LARGE,
  replaceReadBuffer,
  STDIO_MESSAGE_LIMIT,
} from "./bounded-read-buffer.js";

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What the `data` of a too-large stand-in response holds. */
export interface TooLargeData {
  reason: typeof MESSAGE_TOO_LARGE;
  bytes: number;
  limit: number;
}

/** Why a call's answer could not be read, for the model: the size, the limit and what to do. */
export function tooLargeText(server: string, during: string, data: TooLargeData): string {
  return `Server "${server}" answered ${during} with a ${megabytes(data.bytes)} message, over the ${megabytes(data.limit)} toolsift reads from a stdio server in one message, so the answer was skipped; the server stays up. Ask for less (a smaller file, a range or a page).`;
}

/** True when `error` is the stand-in for an answer skipped as too large. */
export function isTooLarge(error: unknown): TooLargeData | undefined {
  const data = (error as { data?: Partial<TooLargeData> } | undefined)?.data;
  return data?.reason === MESSAGE_TOO_LARGE ? (data as TooLargeData) : undefined;
}

/** Puts a `BoundedReadBuffer` in place of a stdio transport's own (v1 or v2 SDK, which both
 * read through `_readBuffer`), so an over-limit message fails its call, not the connection. */
export function boundStdioReads<M>(
  transport: object,
  name: string,
  log: (entry: MCPLogEntry) => void,
  deserialize: (line: string) => M,
): void {
  const buffer = new BoundedReadBuffer<M>(deserialize, (bytes, id) => {
    const data: TooLargeData = { reason: MESSAGE_TOO_LARGE, bytes, limit: STDIO_MESSAGE_LIMIT };
    log({
      level: "warn",
      server: name,
      message: `Skipped a ${megabytes(bytes)} message (over the ${megabytes(STDIO_MESSAGE_LIMIT)} stdio limit)${id === undefined ? "; it named no request, so nothing was failed" : `; request ${JSON.stringify(id)} fails with the reason`}.`,
    });
    if (id === undefined) return undefined;
    const message = tooLargeText(name, "a request", data);
    return { jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message, data } } as M;
  });
  replaceReadBuffer(transport, buffer as BoundedReadBuffer<unknown>);
}
