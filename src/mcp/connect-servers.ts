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
import type { ToolCallContext, ToolResult } from "../catalog/index.js";
import type { ToolSift } from "../create-toolsift.js";
import { ToolsiftError } from "../errors.js";
import { redactUrls } from "../internal/index.js";
import type { UpstreamAuthOptions } from "./auth/upstream-auth.js";
import { serverNameProblem } from "./config/server-name.js";
import { MAX_SUBSCRIPTIONS_DEFAULT } from "./features/resource-subscriptions.js";
import { createUpstreamFeatures, type UpstreamFeatures } from "./features/upstream-features.js";
import type { ElicitationHandler } from "./relay/answer-elicitation.js";
import { callScopeOf } from "./relay/call-scope.js";
import type { ClientRelay } from "./relay/relay-tracker.js";
import type { ToolPins } from "./tools/tool-pins.js";
import {
  createUpstreamCatalog,
  heldMessage,
  renameStale,
  syncTools,
  type UpstreamCatalog,
} from "./tools/upstream-catalog.js";
import {
  createUpstreamNames,
  type NamingOption,
  type UpstreamNames,
} from "./tools/upstream-names.js";
import type { MCPLogEntry, UpstreamRoute, UpstreamServerConfig, UpstreamStatus } from "./types.js";
import { redactConfigSecrets } from "./upstream/upstream-errors.js";
import type { UpstreamStart } from "./upstream/upstream-run.js";
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
  /** Called as each start of a server (first, restart, after a login) settles. */
  onStarted(listener: (server: string, start: UpstreamStart) => void): () => void;
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

type ServerEntry = [string, UpstreamServerConfig];

/** Listeners of one kind of event; `add` returns the function that removes the listener. */
interface Listeners<A extends unknown[]> {
  emit(...args: A): void;
  add(listener: (...args: A) => void): () => void;
}

function createListeners<A extends unknown[]>(): Listeners<A> {
  const listeners = new Set<(...args: A) => void>();
  return {
    emit(...args) {
      for (const listener of listeners) listener(...args);
    },
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Everything `connectServers` keeps while its upstreams run. */
interface Upstreams {
  options: ConnectServersOptions;
  entries: readonly ServerEntry[];
  log: (entry: MCPLogEntry) => void;
  names: UpstreamNames;
  catalog: UpstreamCatalog;
  servers: Map<string, UpstreamServer>;
  /** The `instructions` each server sent at `initialize`, kept from its last listing. */
  instructions: Map<string, string>;
  /** Client sessions that answer server→client requests outside a call; the newest answers. */
  clients: ClientRelay[];
  /** Servers being started, until their start settles (the gateway serves the others meanwhile). */
  starting: Set<string>;
  toolsChanged: Listeners<[server: string]>;
  starts: Listeners<[server: string, start: UpstreamStart]>;
  logMessages: Listeners<[server: string, params: LoggingMessageNotification["params"]]>;
  notifications: Listeners<[server: string, notification: ServerNotification]>;
}

/** The enabled servers, in config order; a name that cannot be a tool prefix is an error. */
function enabledServers(servers: ConnectServersOptions["servers"]): ServerEntry[] {
  const entries = Object.entries(servers).filter(([, config]) => config.enabled !== false);
  for (const [server] of entries) {
    const problem = serverNameProblem(server);
    if (problem !== undefined)
      throw new ToolsiftError("invalid_option", `Server "${server}": ${problem}`);
  }
  return entries;
}

/** Routes a catalog tool's call to the server that owns it, with the call's signal and the
 * client session's progress and relay; an unknown name is an `isError` result. */
async function routeCall(
  upstreams: Upstreams,
  name: string,
  args: Record<string, unknown>,
  context?: ToolCallContext,
): Promise<ToolResult> {
  const route = upstreams.names.route(name);
  const upstream = route && upstreams.servers.get(route.server);
  if (!route || !upstream) {
    return {
      content: [{ type: "text", text: `No upstream server provides "${name}"; search again.` }],
      isError: true,
    };
  }
  const scope = callScopeOf(context?.host);
  const traced = scope?.onUpstreamCall?.(route.server, route.tool);
  let failure: string | undefined;
  const result = await upstream.call(route.tool, args, {
    ...(context?.signal ? { signal: context.signal } : {}),
    ...(scope?.onProgress ? { onProgress: scope.onProgress } : {}),
    ...(scope?.relay ? { relay: scope.relay } : {}),
    ...(traced
      ? {
          onFailure: (code: string) => {
            failure = code;
          },
        }
      : {}),
  });
  if (traced) {
    const isError = result.isError === true;
    traced(isError ? { isError, errorCode: failure ?? "tool_error" } : { isError });
  }
  return result;
}

/** Puts a server's listing in the catalog, keeping the instructions it sent with this start. */
function takeListing(
  upstreams: Upstreams,
  server: string,
  config: UpstreamServerConfig,
  listed: readonly Tool[],
): void {
  // a listing follows each (re)start: the server's instructions are known by now
  const text = upstreams.servers.get(server)?.instructions();
  if (text !== undefined) upstreams.instructions.set(server, text);
  syncTools(upstreams.catalog, server, config, listed);
}

/** The upstream server for one config entry, its events wired to the listeners and catalog;
 * options left unset keep `createUpstreamServer`'s defaults. */
function createServer(upstreams: Upstreams, [server, config]: ServerEntry): UpstreamServer {
  const { options } = upstreams;
  return createUpstreamServer({
    name: server,
    config,
    log: upstreams.log,
    onTools: (tools) => takeListing(upstreams, server, config, tools),
    onStarted: (start) => upstreams.starts.emit(server, start),
    onLogMessage: (params) => upstreams.logMessages.emit(server, params),
    onNotification: (notification) => upstreams.notifications.emit(server, notification),
    connectedClients: () => upstreams.clients,
    ...(options.maxRestarts !== undefined ? { maxRestarts: options.maxRestarts } : {}),
    ...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
  });
}

/** Creates every server; one with known tools (a dump) has them in the catalog at once, so it
 * is searchable before, or without, its first start. */
function createServers(upstreams: Upstreams): void {
  for (const entry of upstreams.entries) {
    const [server, config] = entry;
    upstreams.servers.set(server, createServer(upstreams, entry));
    if (config.tools) {
      // a dump adds `server` to each tool; the upstream never listed it
      const known = (config.tools as (Tool & { server?: unknown })[]).map(
        ({ server: _, ...tool }) => tool,
      );
      takeListing(upstreams, server, config, known);
    }
  }
}

/** Starts every server that is not lazy, in parallel; resolves when each start has settled. A
 * server that fails is logged and settles its bare names, so it keeps none from later servers. */
async function startAll(upstreams: Upstreams): Promise<void> {
  const { servers, starting, log } = upstreams;
  const eager = upstreams.entries.filter(([, config]) => !(config.lazy && config.tools));
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
          renameStale(upstreams.catalog, upstreams.names.settle(server));
        }
      } finally {
        starting.delete(server);
      }
    }),
  );
}

/** The state `connectServers` starts from: names, an empty tool catalog, no servers yet. */
function createUpstreams(sift: ToolSift, options: ConnectServersOptions): Upstreams {
  const given = options.log ?? (() => undefined);
  const entries = enabledServers(options.servers);
  // every log line loses the secrets a URL can carry, whoever wrote it (an upstream's stderr too),
  // and a server's lines its config's secrets (a failing server often echoes its key)
  const log = (entry: MCPLogEntry) => {
    const config = entry.server === undefined ? undefined : options.servers[entry.server];
    const message = redactUrls(entry.message);
    given({ ...entry, message: config ? redactConfigSecrets(message, config) : message });
  };
  const names = createUpstreamNames(
    options.naming,
    (name) => sift.catalog.has(name) && names.route(name) === undefined,
    entries.map(([server]) => server),
  );
  const toolsChanged = createListeners<[server: string]>();
  const upstreams: Upstreams = {
    options,
    entries,
    log,
    names,
    catalog: createUpstreamCatalog({
      sift,
      names,
      configs: new Map(entries),
      pins: options.pins,
      log,
      call: (name, args, context) => routeCall(upstreams, name, args, context),
      onPlaced: (server) => toolsChanged.emit(server),
    }),
    servers: new Map(),
    instructions: new Map(),
    clients: [],
    starting: new Set(),
    toolsChanged,
    starts: createListeners(),
    logMessages: createListeners(),
    notifications: createListeners(),
  };
  return upstreams;
}

/** The `MCPUpstreams` face of the running upstreams. */
function toMCPUpstreams(upstreams: Upstreams, started: Promise<void>): MCPUpstreams {
  const { entries, servers, catalog, clients, options } = upstreams;
  return {
    started,
    notReady: () => entries.flatMap(([server]) => (upstreams.starting.has(server) ? [server] : [])),
    route: (name) => upstreams.names.route(name),
    call: (name, args, context) => routeCall(upstreams, name, args, context),
    upstreamTool: (name) => catalog.originals.get(name),
    server: (name) => servers.get(name),
    held: () => [...catalog.held.values()].map(({ server, tool }) => ({ server, tool })),
    heldMessage: (name) => heldMessage(catalog, name),
    instructions: () =>
      entries.flatMap(([server]) => {
        const text = upstreams.instructions.get(server);
        return text === undefined ? [] : [{ server, text }];
      }),
    features: createUpstreamFeatures(() => servers, options.naming, {
      maxSubscriptions: options.maxSubscriptions ?? MAX_SUBSCRIPTIONS_DEFAULT,
    }),
    onNotification: (listener) => upstreams.notifications.add(listener),
    addClient(relay) {
      clients.push(relay);
      return () => {
        const index = clients.lastIndexOf(relay);
        if (index >= 0) clients.splice(index, 1);
      };
    },
    status: () => [...servers.values()].map((server) => server.status()),
    onToolsChanged: (listener) => upstreams.toolsChanged.add(listener),
    onStarted: (listener) => upstreams.starts.add(listener),
    onLogMessage: (listener) => upstreams.logMessages.add(listener),
    async close() {
      await Promise.all([...servers.values()].map((server) => server.close()));
    },
  };
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
  const upstreams = createUpstreams(sift, options);
  createServers(upstreams);
  const started = startAll(upstreams);
  if (options.waitForStart !== false) await started;
  return toMCPUpstreams(upstreams, started);
}
