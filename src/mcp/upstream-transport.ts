/**
 * The v1 SDK transport to one upstream (stdio child, streamable HTTP or legacy SSE), and the
 * paged `tools/list` every connection (v1 or the modern v2 one) is read with.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  BoundedReadBuffer,
  MESSAGE_TOO_LARGE,
  STDIO_MESSAGE_LIMIT,
} from "./bounded-read-buffer.js";
import type { ModernConnection } from "./modern-upstream.js";
import type { MCPLogEntry, UpstreamServerConfig } from "./types.js";

const MAX_PAGES = 1_000;

/** A transport to `config`; a stdio child's stderr goes to `log`, never to stdout. An HTTP
 * transport logs in through `authProvider` when the server answers 401. */
export function createUpstreamTransport(
  name: string,
  config: UpstreamServerConfig,
  useSse: boolean,
  log: (entry: MCPLogEntry) => void,
  authProvider?: OAuthClientProvider,
): Transport {
  if ("command" in config) {
    const stdio = new StdioClientTransport({
      command: config.command,
      args: [...(config.args ?? [])],
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
      stderr: "pipe",
    });
    boundStdioReads(stdio, name, log, deserializeMessage);
    // the upstream's own stderr goes to our log, never to stdout (which may be the MCP stream)
    stdio.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() !== "") log({ level: "debug", server: name, message: line });
      }
    });
    return stdio;
  }
  const init = {
    requestInit: { headers: { ...config.headers } },
    ...(authProvider ? { authProvider } : {}),
  };
  return useSse
    ? new SSEClientTransport(new URL(config.url), init)
    : new StreamableHTTPClientTransport(new URL(config.url), init);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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
  const holder = transport as { _readBuffer?: unknown };
  if (holder._readBuffer === undefined) {
    throw new Error(
      "The MCP SDK's stdio transport no longer reads through _readBuffer; toolsift cannot bound its reads. Install the SDK version in toolsift's package.json.",
    );
  }
  holder._readBuffer = new BoundedReadBuffer<M>(deserialize, (bytes, id) => {
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
}

/** Every page of `tools/list`; a server that repeats a cursor stops the loop. */
export async function listAllTools(
  connected: Client | ModernConnection,
  timeout: number,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result =
      connected instanceof Client
        ? await connected.listTools(cursor === undefined ? {} : { cursor }, { timeout })
        : await connected.listTools(cursor, timeout);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    // a server that repeats a cursor would page forever
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return tools;
}
