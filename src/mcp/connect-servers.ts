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
import { redactUrls } from "../internal/index.js";
import type { UpstreamAuthOptions } from "./auth/upstream-auth.js";
import { MAX_SUBSCRIPTIONS_DEFAULT } from "./features/resource-subscriptions.js";
import { createUpstreamFeatures, type UpstreamFeatures } from "./features/upstream-features.js";
import type { ElicitationHandler } from "./relay/answer-elicitation.js";
import { callScope } from "./relay/call-scope.js";
import type { ClientRelay } from "./relay/relay-tracker.js";
import { type HeldTool, screenTools, type ToolPins } from "./tools/tool-pins.js";
import { createUpstreamNames, type NamingOption } from "./tools/upstream-names.js";
import type { MCPLogEntry, UpstreamRoute, UpstreamServerConfig, UpstreamStatus } from "./types.js";
import { createUpstreamServer, type UpstreamServer } from "./upstream/upstream-server.js";

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
  /** Milliseconds for a server's whole start (connect, initialize, every page of its tools);
   * default 30,000. */
  startTimeoutMs?: number;
  /** `true` (default): resolve once every server has started (or failed to). `false`: resolve
   * at once and start them in the background — their tools join the catalog as each is up
   * (`started` tells when all are; `toolsift serve` answers its clients meanwhile). */
  waitForStart?: boolean;
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
  /** Most resource subscriptions (`resources/subscribe`) one client session holds at once; a
   * subscribe past it fails saying so. Default 1,000. */
  maxSubscriptions?: number;
}

/** The connected upstreams of one ToolSift. */
export interface MCPUpstreams {
  /** Resolves when every server's first start has settled (started or failed). */
  readonly started: Promise<void>;
  /** The servers whose first start is still under way, in config order. */
  notReady(): string[];
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
  /** The `instructions` each server sent at `initialize` (kept from its last start), in config
   * order; servers that sent none are left out. */
  instructions(): { server: string; text: string }[];
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

/** Why pinning holds a tool back, completing "Tool "x" …". */
const HELD_WHY: Record<HeldTool["verdict"], string> = {
  changed: "changed its title, annotations, description or schema since it was approved",
  new: "is new: its server added it after its tools were approved",
  outdated:
    "was approved before pinning covered titles and annotations, and it has a title or annotations",
};

function profilesOf(config: UpstreamServerConfig): string[] | undefined {
  if (config.profile === undefined) return undefined;
  return typeof config.profile === "string" ? [config.profile] : [...config.profile];
}

/** Starts every server that is not lazy, in parallel; resolves when each start has settled. A
 * server that fails is logged and `settled` runs for it, so it keeps no bare name from others. */
async function startAll(
  entries: readonly [string, UpstreamServerConfig][],
  servers: ReadonlyMap<string, UpstreamServer>,
  starting: Set<string>,
  log: (entry: MCPLogEntry) => void,
  settled: (server: string) => void,
): Promise<void> {
  const eager = entries.filter(([, config]) => !(config.lazy && config.tools));
  for (const [server] of eager) starting.add(server);
  await Promise.all(
    eager.map(async ([server]) => {
      try {
        await servers.get(server)?.start();
      } catch (error) {
        // closed while starting: the gateway is going away, nothing to report
        if (servers.get(server)?.status().state !== "closed") {
          log({ level: "error", server, message: (error as Error).message });
          // a server that is down no longer keeps later servers' tools from their bare names
          settled(server);
        }
      } finally {
        starting.delete(server);
      }
    }),
  );
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
  const given = options.log ?? (() => undefined);
  // every log line loses the secrets a URL can carry, whoever wrote it (an upstream's stderr too)
  const log = (entry: MCPLogEntry) => given({ ...entry, message: redactUrls(entry.message) });
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
    entries.map(([server]) => server),
  );
  const configs = new Map(entries);
  const instructions = new Map<string, string>();
  /** What each server listed last, to name its tools again when an earlier server claims one. */
  const lastListed = new Map<string, readonly Tool[]>();
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
  const held = new Map<string, UpstreamRoute & { verdict: HeldTool["verdict"] }>();
  const { pins } = options;

  /** Sorts listed tools into those to publish and those held back (pinning on). */
  const screen = (server: string, tools: readonly Tool[]): Tool[] => {
    if (!pins) return [...tools];
    for (const [name, route] of held) if (route.server === server) held.delete(name);
    const screened = screenTools(pins, server, tools, (error) => {
      log({ level: "error", server, message: `Cannot write ${pins.file}: ${String(error)}` });
    });
    for (const { tool, verdict } of screened.held) {
      held.set(names.assign(server, tool.name), { server, tool: tool.name, verdict });
      log({
        level: "warn",
        server,
        message: `Tool "${tool.name}" ${HELD_WHY[verdict]} and is held back; review it, then run: ${pins.approveCommand(server, tool.name)}`,
      });
    }
    return screened.kept;
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

  /** Takes a server's listing: claims its bare names (config order decides who owns one), names
   * again the tools of servers whose names that changed, then places the server's tools. */
  const sync = (server: string, config: UpstreamServerConfig, listed: readonly Tool[]) => {
    lastListed.set(server, listed);
    // a listing follows each (re)start: the server's instructions are known by now
    const text = servers.get(server)?.instructions();
    if (text !== undefined) instructions.set(server, text);
    renameStale(
      names.claim(
        server,
        listed.map((tool) => tool.name),
      ),
    );
    place(server, config, listed);
  };

  const renameStale = (stale: readonly string[]) => {
    for (const other of stale) {
      const config = configs.get(other);
      if (config) place(other, config, lastListed.get(other) ?? []);
    }
  };

  /** Makes the catalog hold exactly `tools` for `server`: adds, replaces changed, removes gone. */
  const place = (server: string, config: UpstreamServerConfig, listed: readonly Tool[]) => {
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
      // a bare name taken over by an earlier server (config order) is that server's now
      const route = names.route(name);
      if (route !== undefined && route.server !== server) continue;
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

  // a server being started, until its start settles (the gateway serves the others meanwhile)
  const starting = new Set<string>();
  const started = startAll(entries, servers, starting, log, (server) =>
    renameStale(names.settle(server)),
  );
  if (options.waitForStart !== false) await started;

  return {
    started,
    notReady: () => entries.flatMap(([server]) => (starting.has(server) ? [server] : [])),
    route: (name) => names.route(name),
    call,
    upstreamTool: (name) => originals.get(name),
    server: (name) => servers.get(name),
    held: () => [...held.values()].map(({ server, tool }) => ({ server, tool })),
    heldMessage(name) {
      const route = held.get(name);
      if (!route || !pins) return undefined;
      return `Tool "${name}" (tool "${route.tool}" of server "${route.server}") ${HELD_WHY[route.verdict]}, so the gateway holds it back. Review it, run: ${pins.approveCommand(route.server, route.tool)}, then restart the gateway.`;
    },
    instructions: () =>
      entries.flatMap(([server]) => {
        const text = instructions.get(server);
        return text === undefined ? [] : [{ server, text }];
      }),
    features: createUpstreamFeatures(() => servers, options.naming, {
      maxSubscriptions: options.maxSubscriptions ?? MAX_SUBSCRIPTIONS_DEFAULT,
    }),
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
