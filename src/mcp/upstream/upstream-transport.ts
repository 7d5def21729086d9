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
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { MCPLogEntry, UpstreamServerConfig } from "../types.js";
import { boundStdioReads, megabytes } from "./bound-stdio-reads.js";
import type { ModernConnection } from "./modern-upstream.js";
import { keepStderrTail } from "./stderr-tail.js";

/** Bounds on one server's `tools/list`: far past any real server (the largest real catalog in
 * the benchmark has 200 tools), near enough to keep a hostile one from exhausting memory. */
export const MAX_PAGES = 1_000;
export const MAX_TOOLS = 100_000;
/** Characters of tool definitions (as JSON) one listing keeps: the page and tool caps alone let a
 * server send 1,000 pages of 10 MB (10 GB, the gateway killed) in a few hundred tools. 64 Mi is
 * 12 times the 20 real catalogs together (1,371 tools, 5.2 MB). */
export const MAX_LIST_CHARS = 64 * 1024 * 1024;

/** A transport to `config`; a stdio child's stderr goes to `log`, never to stdout. An HTTP
 * transport logs in through `authProvider` when the server answers 401; `authFetch` is the
 * `fetch` its requests (refreshes included) go through. */
export function createUpstreamTransport(
  name: string,
  config: UpstreamServerConfig,
  useSse: boolean,
  log: (entry: MCPLogEntry) => void,
  authProvider?: OAuthClientProvider,
  authFetch?: FetchLike,
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
    const tail = keepStderrTail(stdio);
    // the upstream's own stderr goes to our log, never to stdout (which may be the MCP stream)
    stdio.stderr?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        log({ level: "debug", server: name, message: line });
        tail(line);
      }
    });
    return stdio;
  }
  const init = {
    requestInit: { headers: { ...config.headers } },
    ...(authProvider ? { authProvider } : {}),
    ...(authFetch ? { fetch: authFetch } : {}),
  };
  return useSse
    ? new SSEClientTransport(new URL(config.url), init)
    : new StreamableHTTPClientTransport(new URL(config.url), init);
}

/**
 * Every page of `tools/list`. A server that repeats a cursor stops the loop; one that pages on
 * past `MAX_PAGES` pages, `MAX_TOOLS` tools or `MAX_LIST_CHARS` of definitions is cut there, and
 * `onCut` hears what was kept, so a hostile or broken pager can neither loop forever nor fill
 * the gateway's memory.
 */
export async function listAllTools(
  connected: Client | ModernConnection,
  timeout: number,
  onCut: (message: string) => void = () => undefined,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let chars = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result =
      connected instanceof Client
        ? await connected.listTools(cursor === undefined ? {} : { cursor }, { timeout })
        : await connected.listTools(cursor, timeout);
    for (const tool of result.tools.slice(0, MAX_TOOLS - tools.length)) {
      chars += JSON.stringify(tool).length;
      if (chars > MAX_LIST_CHARS) break;
      tools.push(tool);
    }
    cursor = result.nextCursor;
    // a server that repeats a cursor would page forever
    if (chars <= MAX_LIST_CHARS && (cursor === undefined || seen.has(cursor))) return tools;
    if (cursor !== undefined) seen.add(cursor);
    if (tools.length >= MAX_TOOLS || chars > MAX_LIST_CHARS) break;
  }
  const count = (value: number) => value.toLocaleString("en-US");
  onCut(
    `Stopped listing tools after ${count(tools.length)} tools and ${count(seen.size)} pages: the server offered more (at most ${count(MAX_PAGES)} pages, ${count(MAX_TOOLS)} tools and ${megabytes(MAX_LIST_CHARS)} of tool definitions are read). Its other tools are not served; if it really has more, split it into servers with fewer tools.`,
  );
  return tools;
}
