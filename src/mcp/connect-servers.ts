/**
 * `connectServers`: puts the tools of upstream MCP servers into a ToolSift's catalog and keeps
 * them in sync (re-listing on `list_changed` and after restarts), with every call routed back to
 * the server that owns the tool.
 */
import type {
  LoggingMessageNotification,
  ServerNotification,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import picomatch from "picomatch";
import {
  fingerprintTool,
  type ToolAnnotations,
  type ToolCallContext,
  type ToolDefinition,
  type ToolResult,
} from "../catalog/index.js";
import type { ToolSift } from "../create-toolsift.js";
import { isToolsiftError, ToolsiftError } from "../errors.js";
import type { ElicitationHandler } from "./answer-elicitation.js";
import type { UpstreamAuthOptions } from "./auth/upstream-auth.js";
import { callScope } from "./call-scope.js";
import type { ClientRelay } from "./client-relay.js";
import { screenTools, type ToolPins } from "./tool-pins.js";
import type { MCPLogEntry, UpstreamRoute, UpstreamServerConfig, UpstreamStatus } from "./types.js";
import { createUpstreamFeatures, type UpstreamFeatures } from "./upstream-features.js";
import { createUpstreamNames, type NamingOption } from "./upstream-names.js";
import { createUpstreamServer, type UpstreamServer } from "./upstream-server.js";

/** Options of `connectServers`. */
export interface ConnectServersOptions {
  /** Upstream servers by name (`^[A-Za-z0-9_-]{1,64}$`); `enabled: false` ones are skipped. */
  servers: Readonly<Record<string, UpstreamServerConfig>>;
  /** `prefixed` (default): every tool is `server__tool`; `bare`: upstream names, prefixed only
   * when taken. Either way `route(name)` gives the server and upstream name back. */
  naming?: NamingOption;
  /** Receives log lines (connects, crashes, restarts, the upstreams' stderr); default: none. */
  log?: (entry: MCPLogEntry) => void;
  /** Restart attempts after a crash before a 60 s pause (then the count starts again); default 3. */
  maxRestarts?: number;
  /** Milliseconds to connect and list a server; default 30,000. */
  startTimeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /** Pins tool definitions by fingerprint: a tool that changed since it was approved is held
   * back (not in the catalog; calls refused, naming the approve command). Default: no pinning. */
  pins?: ToolPins;
  /** Answers an upstream's `elicitation/create` when no client session is there to ask (library
   * use, or a gateway with no client connected); an accepted form gets the schema's defaults for
   * fields left out. Default: the server is told the user declined. */
  onElicitation?: ElicitationHandler;
  /** How HTTP servers that ask for OAuth log in (`docs/auth.md`); default: logins from the file
   * store under the user's config directory, `needs_login` until one is there. */
  auth?: UpstreamAuthOptions;
}

/** The connected upstreams of one ToolSift. */
export interface MCPUpstreams {
  /** The server and upstream tool name behind a catalog name. */
  route(name: string): UpstreamRoute | undefined;
  /** Calls a catalog tool on its upstream; failures are `isError` results, never throws. */
  call(name: string, args: Record<string, unknown>, context?: ToolCallContext): Promise<ToolResult>;
  /** The tool as its upstream listed it (original name and every field). */
  upstreamTool(name: string): Tool | undefined;
  server(name: string): UpstreamServer | undefined;
  status(): UpstreamStatus[];
  /** Called after a server's tools were (re)listed into the catalog. */
  onToolsChanged(listener: (server: string) => void): () => void;
  /** Called with each log message (`notifications/message`) an upstream sends. */
  onLogMessage(
    listener: (server: string, params: LoggingMessageNotification["params"]) => void,
  ): () => void;
  /** The tools held back because they changed since approval (with `pins`). */
  held(): UpstreamRoute[];
  /** Why a call to `name` is refused when the tool is held back; undefined otherwise. */
  heldMessage(name: string): string | undefined;
  /** Resources, resource templates, prompts and completion of every upstream, routed. */
  readonly features: UpstreamFeatures;
  /** Called with each resource/prompt notification (updated, list changed) an upstream sends. */
  onNotification(listener: (server: string, notification: ServerNotification) => void): () => void;
  /** Adds a client session that answers server→client requests sent outside any call (the
   * newest added answers); returns the function that removes it. */
  addClient(relay: ClientRelay): () => void;
  /** Closes every connection and child process; the servers' tools stay in the catalog. */
  close(): Promise<void>;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function profilesOf(config: UpstreamServerConfig): string[] | undefined {
  if (config.profile === undefined) return undefined;
  return typeof config.profile === "string" ? [config.profile] : [...config.profile];
}

/**
 * Connects the enabled servers (lazy ones with known `tools` wait for their first call) and adds
 * their tools to `sift.catalog`. A server that fails to start is logged and reported by
 * `status()`; the others keep working, and its tools' calls explain the failure.
 *
 * @example
 * const upstreams = await connectServers(sift, { servers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } } });
 * await upstreams.close();
 */
export async function connectServers(
  sift: ToolSift,
  options: ConnectServersOptions,
): Promise<MCPUpstreams> {
  const log = options.log ?? (() => undefined);
  const entries = Object.entries(options.servers).filter(([, config]) => config.enabled !== false);
  for (const [server] of entries) {
    if (!SERVER_NAME.test(server)) {
      throw new ToolsiftError(
        "invalid_option",
        `Server name "${server}" must be 1–64 letters, digits, "_" or "-"; rename it in the config.`,
      );
    }
  }
  const names = createUpstreamNames(
    options.naming,
    (name) => sift.catalog.has(name) && names.route(name) === undefined,
  );
  const originals = new Map<string, Tool>();
  const owned = new Map<string, Set<string>>();
  const servers = new Map<string, UpstreamServer>();
  const listeners = new Set<(server: string) => void>();
  const logListeners = new Set<
    (server: string, params: LoggingMessageNotification["params"]) => void
  >();
  const notificationListeners = new Set<
    (server: string, notification: ServerNotification) => void
  >();
  const clients: ClientRelay[] = [];
  const held = new Map<string, UpstreamRoute>();
  const { pins } = options;

  /** Sorts listed tools into those to publish and those held back (pinning on). */
  const screen = (server: string, tools: readonly Tool[]): Tool[] => {
    if (!pins) return [...tools];
    for (const [name, route] of held) if (route.server === server) held.delete(name);
    const { kept, changed } = screenTools(pins, server, tools, (error) => {
      log({ level: "error", server, message: `Cannot write ${pins.file}: ${String(error)}` });
    });
    for (const tool of changed) {
      held.set(names.assign(server, tool.name), { server, tool: tool.name });
      log({
        level: "warn",
        server,
        message: `Tool "${tool.name}" changed since it was approved and is held back; review it, then run: ${pins.approveCommand(server, tool.name)}`,
      });
    }
    return kept;
  };

  const call = async (
    name: string,
    args: Record<string, unknown>,
    context?: ToolCallContext,
  ): Promise<ToolResult> => {
    const route = names.route(name);
    const upstream = route && servers.get(route.server);
    if (!route || !upstream) {
      return {
        content: [{ type: "text", text: `No upstream server provides "${name}"; search again.` }],
        isError: true,
      };
    }
    const scope = callScope.getStore();
    return upstream.call(route.tool, args, {
      ...(context?.signal ? { signal: context.signal } : {}),
      ...(scope?.onProgress ? { onProgress: scope.onProgress } : {}),
      ...(scope?.relay ? { relay: scope.relay } : {}),
    });
  };

  const toDefinition = (
    server: string,
    config: UpstreamServerConfig,
    tool: Tool,
  ): ToolDefinition => {
    const name = names.assign(server, tool.name);
    const pinned = config.neverDefer?.some((pattern) => picomatch.isMatch(tool.name, pattern));
    const profiles = profilesOf(config);
    const title = tool.title ?? tool.annotations?.title;
    return {
      name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
      server,
      ...(title !== undefined ? { title } : {}),
      ...(tool.annotations ? { annotations: tool.annotations as ToolAnnotations } : {}),
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(pinned ? { defer: "never" as const } : config.defer ? { defer: config.defer } : {}),
      ...(profiles ? { profiles } : {}),
      handler: (args, context) => call(name, args, context),
    };
  };

  /** Makes the catalog hold exactly `tools` for `server`: adds, replaces changed, removes gone. */
  const sync = (server: string, config: UpstreamServerConfig, listed: readonly Tool[]) => {
    const previous = owned.get(server) ?? new Set<string>();
    const current = new Set<string>();
    const tools = screen(server, listed);
    for (const tool of tools) {
      const definition = toDefinition(server, config, tool);
      try {
        const existing = sift.catalog.get(definition.name);
        if (!existing || fingerprintTool(existing) !== fingerprintTool(definition)) {
          sift.catalog.replace(definition);
        }
        current.add(definition.name);
        originals.set(definition.name, tool);
      } catch (error) {
        if (!isToolsiftError(error)) throw error;
        names.release(definition.name);
        log({ level: "warn", server, message: `Skipped tool "${tool.name}": ${error.message}` });
      }
    }
    for (const name of previous) {
      if (current.has(name)) continue;
      sift.catalog.remove(name);
      originals.delete(name);
      // a held tool keeps its name, so a call to it says why it is refused
      if (!held.has(name)) names.release(name);
    }
    owned.set(server, current);
    for (const listener of listeners) listener(server);
  };

  for (const [server, config] of entries) {
    servers.set(
      server,
      createUpstreamServer({
        name: server,
        config,
        log,
        onTools: (tools) => sync(server, config, tools),
        onLogMessage: (params) => {
          for (const listener of logListeners) listener(server, params);
        },
        onNotification: (notification) => {
          for (const listener of notificationListeners) listener(server, notification);
        },
        connectedClients: () => clients,
        ...(options.maxRestarts !== undefined ? { maxRestarts: options.maxRestarts } : {}),
        ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
        ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
        ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
        ...(options.auth ? { auth: options.auth } : {}),
      }),
    );
    // known tools (a dump) make the server searchable before, or without, its first start
    if (config.tools) {
      // a dump adds `server` to each tool; the upstream never listed it
      const known = (config.tools as (Tool & { server?: unknown })[]).map(
        ({ server: _, ...tool }) => tool,
      );
      sync(server, config, known);
    }
  }

  await Promise.all(
    entries.map(async ([server, config]) => {
      if (config.lazy && config.tools) return;
      try {
        await servers.get(server)?.start();
      } catch (error) {
        log({ level: "error", server, message: (error as Error).message });
      }
    }),
  );

  return {
    route: (name) => names.route(name),
    call,
    upstreamTool: (name) => originals.get(name),
    server: (name) => servers.get(name),
    held: () => [...held.values()],
    heldMessage(name) {
      const route = held.get(name);
      if (!route || !pins) return undefined;
      return `Tool "${name}" (tool "${route.tool}" of server "${route.server}") changed its description or schema since it was approved, so the gateway holds it back. Review the change, run: ${pins.approveCommand(route.server, route.tool)}, then restart the gateway.`;
    },
    features: createUpstreamFeatures(() => servers, options.naming),
    onNotification(listener) {
      notificationListeners.add(listener);
      return () => notificationListeners.delete(listener);
    },
    addClient(relay) {
      clients.push(relay);
      return () => {
        const index = clients.lastIndexOf(relay);
        if (index >= 0) clients.splice(index, 1);
      };
    },
    status: () => [...servers.values()].map((server) => server.status()),
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onLogMessage(listener) {
      logListeners.add(listener);
      return () => logListeners.delete(listener);
    },
    async close() {
      await Promise.all([...servers.values()].map((server) => server.close()));
    },
  };
}
