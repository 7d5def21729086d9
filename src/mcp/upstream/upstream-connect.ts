/**
 * Opens one connection to an upstream: the v1 SDK client over stdio or streamable HTTP, falling
 * back to legacy SSE when a server from before streamable HTTP refuses its POST, or to the v2
 * client when the server speaks only the modern era (2026-07-28). What a connection sends
 * unasked (list_changed, log messages, resource and prompt notifications) goes to `hooks`.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ServerNotification,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { installClientRelay, RELAYED_CAPABILITIES } from "../relay/client-relay.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig } from "../types.js";
import { holdResponsesBehindProgress } from "./hold-responses.js";
import { connectModern, type ModernConnection, refusedLegacy } from "./modern-upstream.js";
import { exitedAtStart } from "./stderr-tail.js";
import { createUpstreamTransport } from "./upstream-transport.js";

/** One open connection: the v1 client and its transport, or a modern (v2) connection. */
export type UpstreamConnection =
  | { kind: "v1"; client: Client; transport: Transport }
  | { kind: "modern"; modern: ModernConnection };

/** What a connection needs from the server that owns it. */
export interface ConnectHooks {
  name: string;
  config: UpstreamServerConfig;
  log: (entry: MCPLogEntry) => void;
  clientInfo: { name: string; version: string };
  /** Per request of the handshake; the whole start is bounded by the caller. */
  timeoutMs: number;
  serverRequests: ClientRelay;
  progressActive: () => boolean;
  onToolsChanged: (connection: UpstreamConnection) => void;
  onClose: (connection: UpstreamConnection) => void;
  onLogMessage: (params: LoggingMessageNotification["params"]) => void;
  onNotification: (notification: ServerNotification) => void;
  /** Hears each transport as soon as it exists, so an abandoned start can close it. */
  opened: (close: () => Promise<void>) => void;
  /** OAuth for an HTTP server that answers 401 (`src/mcp/auth/`). */
  authProvider?: OAuthClientProvider;
  /** The `fetch` of an OAuth server's transport: one refresh at a time per login. */
  authFetch?: FetchLike;
  /** Runs the first connect again after an interactive login it started; default: once. */
  retrying?: <T>(attempt: () => Promise<T>) => Promise<T>;
  /** True when `error` means a user must log in: no fallback is tried then. */
  loginNeeded?: (error: unknown) => boolean;
}

/** The SDK object a connection's requests go through (for paging `tools/list`). */
export const sdkOf = (connection: UpstreamConnection): Client | ModernConnection =>
  connection.kind === "v1" ? connection.client : connection.modern;

/** Closes a connection, ignoring a transport already gone. */
export const closeConnection = (connection: UpstreamConnection): Promise<void> =>
  sdkOf(connection)
    .close()
    .catch(() => undefined);

/** The child process id of a stdio connection. */
export const pidOf = (connection: UpstreamConnection | undefined): number | undefined =>
  connection?.kind === "v1" && connection.transport instanceof StdioClientTransport
    ? (connection.transport.pid ?? undefined)
    : undefined;

/** Connects by the first way that works; rejects with the last way's error. */
export async function openConnection(hooks: ConnectHooks): Promise<UpstreamConnection> {
  const { config, log, name } = hooks;
  const retrying = hooks.retrying ?? ((attempt) => attempt());
  try {
    return await retrying(() =>
      connectV1(hooks, !("command" in config) && config.transport === "sse"),
    );
  } catch (error) {
    if (hooks.loginNeeded?.(error)) throw error;
    if (refusedLegacy(error)) return await connectModernEra(hooks);
    // servers from before streamable HTTP answer its POST with 4xx: try the legacy transport
    const status = (error as { code?: unknown }).code;
    const legacy = typeof status === "number" && status >= 400 && status < 500;
    if ("command" in config || config.transport !== undefined || !legacy) throw error;
    log({ level: "info", server: name, message: "Streamable HTTP refused; trying SSE." });
    return await connectV1(hooks, true);
  }
}

async function connectV1(hooks: ConnectHooks, useSse: boolean): Promise<UpstreamConnection> {
  const client = new Client(hooks.clientInfo, { capabilities: RELAYED_CAPABILITIES });
  installClientRelay(client, hooks.serverRequests);
  const transport = createUpstreamTransport(
    hooks.name,
    hooks.config,
    useSse,
    hooks.log,
    hooks.authProvider,
    hooks.authFetch,
  );
  hooks.opened(() => transport.close());
  const connection: UpstreamConnection = { kind: "v1", client, transport };
  client.onclose = () => hooks.onClose(connection);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
    hooks.onToolsChanged(connection),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    hooks.onLogMessage(notification.params),
  );
  for (const schema of [
    ResourceUpdatedNotificationSchema,
    ResourceListChangedNotificationSchema,
    PromptListChangedNotificationSchema,
  ]) {
    client.setNotificationHandler(schema, (notification) =>
      hooks.onNotification(notification as ServerNotification),
    );
  }
  try {
    await client.connect(transport, { timeout: hooks.timeoutMs });
  } catch (error) {
    // a half-started process must not outlive the failed attempt
    await transport.close().catch(() => undefined);
    throw exitedAtStart(transport, error);
  }
  holdResponsesBehindProgress(transport, hooks.progressActive);
  return connection;
}

/** A server that refused the legacy handshake: the v2 client, era negotiated. */
async function connectModernEra(hooks: ConnectHooks): Promise<UpstreamConnection> {
  const holder: { connection?: UpstreamConnection } = {};
  const modern = await connectModern({
    config: hooks.config,
    clientInfo: hooks.clientInfo,
    timeout: hooks.timeoutMs,
    onServerRequest: hooks.serverRequests,
    progressActive: hooks.progressActive,
    onToolsChanged: () => holder.connection && hooks.onToolsChanged(holder.connection),
    onClose: () => holder.connection && hooks.onClose(holder.connection),
    onStderr: (line) => hooks.log({ level: "debug", server: hooks.name, message: line }),
    name: hooks.name,
    log: hooks.log,
  });
  holder.connection = { kind: "modern", modern };
  hooks.opened(() => modern.close());
  hooks.log({
    level: "info",
    server: hooks.name,
    message: `Speaks MCP ${modern.version} only; connected with the v2 client.`,
  });
  return holder.connection;
}
