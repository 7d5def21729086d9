/**
 * Upstreams that speak only MCP 2026-07-28 (the "modern" era: no `initialize`, a `_meta`
 * envelope on every request). The v1 SDK the gateway is built on speaks 2025-11-25 and older, so
 * such a server refuses its `initialize` with -32022 (unsupported protocol version). The upstream
 * then reconnects through the v2 client (`@modelcontextprotocol/client`, an optional peer loaded
 * only here) with `versionNegotiation: { mode: "auto" }`. Tools are listed and called, resources,
 * prompts and completion pass through; `tools/list_changed` arrives on a `subscriptions/listen`
 * stream. Every legacy upstream keeps the v1 path unchanged.
 */
import {
  type ClientRequest,
  ErrorCode,
  McpError,
  type ServerCapabilities,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../../catalog/index.js";
import { errorText } from "../../internal/index.js";
import type { UpstreamProgress } from "../relay/call-scope.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig } from "../types.js";
import { boundStdioReads } from "./bound-stdio-reads.js";
import { holdResponsesBehindProgress } from "./hold-responses.js";

/** The modern revision this path was built and tested against. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** Request options shared by every call on a modern connection. */
export interface ModernRequestOptions {
  timeout: number;
  signal?: AbortSignal;
  onProgress?: (progress: UpstreamProgress) => void;
}

/** A connected modern upstream, in the shapes the v1 path uses. */
export interface ModernConnection {
  /** The protocol version the server and the v2 client settled on. */
  readonly version: string;
  listTools(
    cursor: string | undefined,
    timeout: number,
  ): Promise<{ tools: Tool[]; nextCursor?: string }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: ModernRequestOptions,
  ): Promise<ToolResult>;
  /** Any other request (resources, prompts, completion); errors are v1 `McpError`s. */
  request(request: ClientRequest, options: ModernRequestOptions): Promise<unknown>;
  capabilities(): ServerCapabilities | undefined;
  close(): Promise<void>;
}

/** True when a legacy `initialize` was refused because the server speaks only a later era. */
export function refusedLegacy(error: unknown): boolean {
  if ((error as { code?: unknown }).code === -32022) return true;
  // over HTTP the v1 client reports the JSON-RPC error inside an HTTP 400's message
  const message = errorText(error);
  return /"code"\s*:\s*-32022/u.test(message);
}

/** Turns a v2 error into the v1 `McpError` the rest of the MCP layer understands. */
function toMcpError(error: unknown): McpError {
  const { code, data } = error as { code?: unknown; data?: unknown };
  // McpError adds "MCP error N: " itself; an error relayed through both SDKs has it already
  const message = errorText(error).replace(/^(MCP error -?\d+: )+/u, "");
  if (typeof code === "number") return new McpError(code, message, data);
  const mapped =
    code === "REQUEST_TIMEOUT"
      ? ErrorCode.RequestTimeout
      : code === "CONNECTION_CLOSED"
        ? ErrorCode.ConnectionClosed
        : ErrorCode.InternalError;
  return new McpError(mapped, message, data);
}

const toV2Options = (options: ModernRequestOptions) => ({
  timeout: options.timeout,
  ...(options.signal ? { signal: options.signal } : {}),
  ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: true } : {}),
});

/** The v2 client modules (an optional peer). */
type ModernModules = {
  v2: typeof import("@modelcontextprotocol/client");
  stdio: typeof import("@modelcontextprotocol/client/stdio");
};

/** The optional v2 client, loaded only when a server refused the legacy handshake. */
async function loadModernClient(): Promise<ModernModules> {
  try {
    const [v2, stdio] = await Promise.all([
      import("@modelcontextprotocol/client"),
      import("@modelcontextprotocol/client/stdio"),
    ]);
    return { v2, stdio };
  } catch (error) {
    // upstreamErrorText words it: the server, the era, the install command
    throw Object.assign(
      new Error(`@modelcontextprotocol/client is not installed`, { cause: error }),
      { code: "modern_client_missing" },
    );
  }
}

/** The v2 transport for a server's config: stdio (its stderr to the log, its reads bounded as
 * on the v1 path, so an over-limit message fails its call instead of the connection) or HTTP. */
function modernTransport(
  { v2, stdio }: ModernModules,
  options: Pick<ModernConnectOptions, "config" | "name" | "log" | "onStderr">,
) {
  const { config } = options;
  if (!("command" in config)) {
    return new v2.StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
    });
  }
  const transport = new stdio.StdioClientTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    env: { ...stdio.getDefaultEnvironment(), ...config.env },
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    stderr: "pipe",
  });
  boundStdioReads(transport, options.name, options.log, v2.deserializeMessage);
  transport.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() !== "") options.onStderr(line);
    }
  });
  return transport;
}

/** What `connectModern` needs: the server, how to answer it, and where its events go. */
interface ModernConnectOptions {
  config: UpstreamServerConfig;
  clientInfo: { name: string; version: string };
  timeout: number;
  /** Answers the elicitation, sampling and roots requests a modern server embeds in an
   * `input_required` result (the v2 client fulfils them and retries the call). */
  onServerRequest: ClientRelay;
  /** True while calls that want progress are in flight (see `holdResponsesBehindProgress`). */
  progressActive: () => boolean;
  onToolsChanged: () => void;
  onClose: () => void;
  /** Each line a stdio server writes to stderr. */
  onStderr: (line: string) => void;
  /** The server's name and the gateway log, for messages skipped as too large. */
  name: string;
  log: (entry: MCPLogEntry) => void;
}

/**
 * Connects to a modern-only server with the v2 client; rejects with the reason (the v2 client
 * missing, or its own connect error). `onToolsChanged` runs on each `tools/list_changed`.
 */
export async function connectModern(options: ModernConnectOptions): Promise<ModernConnection> {
  const { v2, stdio } = await loadModernClient();
  const client = new v2.Client(options.clientInfo, {
    versionNegotiation: { mode: "auto" },
    // the same capabilities as the legacy path, in the v2 types
    capabilities: {
      sampling: {},
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
    },
  });
  for (const method of ["elicitation/create", "sampling/createMessage", "roots/list"] as const) {
    client.setRequestHandler(
      method,
      (request, context) =>
        options.onServerRequest(request as ServerRequest, context.mcpReq.signal) as never,
    );
  }
  const transport = modernTransport({ v2, stdio }, options);
  try {
    await client.connect(transport, { timeout: options.timeout });
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
  holdResponsesBehindProgress(transport, options.progressActive);
  client.onclose = options.onClose;
  if (client.getServerCapabilities()?.tools?.listChanged) {
    client.setNotificationHandler("notifications/tools/list_changed", options.onToolsChanged);
    // the subscription stream lives as long as the connection; a server without it still works
    client.listen({ toolsListChanged: true }).catch(() => undefined);
  }
  return {
    version: client.getNegotiatedProtocolVersion() ?? MODERN_PROTOCOL_VERSION,
    async listTools(cursor, timeout) {
      try {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
        return page as unknown as { tools: Tool[]; nextCursor?: string };
      } catch (error) {
        throw toMcpError(error);
      }
    },
    async callTool(name, args, callOptions) {
      try {
        const result = await client.callTool({ name, arguments: args }, toV2Options(callOptions));
        return result as unknown as ToolResult;
      } catch (error) {
        throw toMcpError(error);
      }
    },
    async request(request, requestOptions) {
      try {
        const { method, params } = request as { method: string; params?: Record<string, unknown> };
        return await client.request(
          { method: method as "tools/list", ...(params ? { params } : {}) },
          toV2Options(requestOptions),
        );
      } catch (error) {
        throw toMcpError(error);
      }
    },
    capabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    close: () => client.close(),
  };
}
