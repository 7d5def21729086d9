/** What `serve` and `inspect --config` share: the gateway's ToolSift from a config file, and the
 * inspector attached to it (catalog views of its catalog, Sessions from its recorder). */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createInspectorModel,
  type InspectorModel,
  type InspectorServer,
  type SessionsView,
  startInspectorServer,
} from "../inspector/index.js";
import { redactUrls } from "../internal/index.js";
import type { MCPToolSift, ReplicaState, SessionRecorder } from "../mcp/index.js";
import type { SearchOptionsOfToolSift } from "../toolsift-options.js";
import { openEmbedder } from "./configured-embedder.js";
import { gatewayLearning } from "./gateway-learning.js";
import { cacheStore } from "./index-cache.js";
import type { CliIO } from "./io.js";
import { loadMCP } from "./load-mcp.js";
import { UsageError } from "./usage-error.js";

export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;
export const GATEWAY_MODES = ["bridge", "reveal", "direct"] as const;
export type CliGatewayMode = (typeof GATEWAY_MODES)[number];

/** Reads `--mode` (absent: undefined, the config decides). */
export function modeFlag(mode: string | undefined): CliGatewayMode | undefined {
  if (mode !== undefined && !(GATEWAY_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode must be bridge, reveal or direct, got "${mode}".`);
  }
  return mode as CliGatewayMode | undefined;
}

/** Reads `--log-level`: the rank of the most verbose level to print. */
export function logLevelFlag(level = "info"): number {
  const rank = (LOG_LEVELS as readonly string[]).indexOf(level);
  if (rank === -1)
    throw new UsageError(`--log-level must be error, warn, info or debug, got "${level}".`);
  return rank;
}

/** The command that logs in to `server` of the config at `configPath`. */
export function loginCommand(server: string, configPath: string): string {
  const quoted = /^[\w./-]+$/.test(configPath) ? configPath : JSON.stringify(configPath);
  return `toolsift auth login ${server} --config ${quoted}`;
}

/** How `openGatewaySift` starts the gateway; every field has a default. */
export interface OpenGatewayOptions {
  /** `false` (serve): start the upstreams in the background, serving each as it is up. */
  waitForStart?: boolean;
  /** Replicas: reveals and approvals go through the shared store. */
  state?: ReplicaState | undefined;
  /** Per-session limits of the upstream side (absent: the library's defaults). */
  limits?: { maxSubscriptions?: number };
  /** `false` (`--no-learning`): no learning whatever the config says. */
  learningOn?: boolean;
  /** Where the config's embedder caches tool vectors (`cacheDir`); undefined: nowhere. */
  vectorCache?: string | undefined;
  /** The index cache folder (`cacheDir`): the index is filled at first use, from it when it
   * holds an index of the same tools (absent: built at first use, not kept). */
  cache?: string | undefined;
}

/** Where the gateway's upstream logins live: the replicas' store, or, when the config names a
 * state store but this command shares no sessions (stdio, the inspector), a connection to it
 * for logins alone, so `toolsift auth` and every gateway of the config use one login. */
async function openLogins(
  mcp: Awaited<ReturnType<typeof loadMCP>>,
  configured: string | undefined,
  state: ReplicaState | undefined,
) {
  const own =
    state === undefined && configured !== undefined
      ? await mcp.createRedisSessionStore({ url: configured })
      : undefined;
  const shared = state?.store ?? own;
  return {
    store: shared ? mcp.createSharedTokenStore(shared) : undefined,
    close: async () => {
      await own?.close();
    },
  };
}

/** Loads the config, connects its servers and returns the gateway's ToolSift; logs go to stderr. */
export async function openGatewaySift(
  configPath: string,
  io: CliIO,
  logRank: number,
  {
    waitForStart = true,
    state,
    limits = {},
    learningOn = true,
    vectorCache,
    cache,
  }: OpenGatewayOptions = {},
) {
  const mcp = await loadMCP();
  const config = await mcp.loadGatewayConfig(configPath);
  const learning = gatewayLearning(config, configPath, io, learningOn);
  // warnings (an embedder that is down, a policy that matches nothing) go where the logs go; the
  // gateway and its inspector search apart, so the same outage is said once a minute at most
  const said = new Map<string, number>();
  const warn = (message: string) => {
    const now = Date.now();
    if ((said.get(message) ?? -Infinity) > now - 60_000) return;
    if (said.size > 256) said.clear();
    said.set(message, now);
    if (logRank >= LOG_LEVELS.indexOf("warn")) io.stderr(`[warn] ${redactUrls(message)}\n`);
  };
  const embedder = config.embedder
    ? openEmbedder(config.embedder, { cacheDir: vectorCache, warn })
    : undefined;
  const filePins = config.pinTools
    ? await mcp.loadToolPins(config.approvals ?? mcp.defaultApprovalsFile(configPath), configPath)
    : undefined;
  const pins = filePins && state ? await mcp.sharePins(filePins, state.store) : filePins;
  const logins = await openLogins(mcp, config.state, state);
  const sift = await mcp.createMCPToolSift({
    ...learning.options,
    onWarning: warn,
    ...(embedder ? { search: embedder.search } : {}),
    ...(pins ? { pins } : {}),
    servers: config.servers,
    ...(config.naming ? { naming: config.naming } : {}),
    ...(config.profile ? { policy: { profile: config.profile } } : {}),
    ...(config.budget ? { budget: config.budget } : {}),
    auth: {
      loginCommand: (server) => loginCommand(server, configPath),
      // replicas share one login per upstream, refreshed by one of them at a time
      ...(logins.store ? { store: logins.store } : {}),
    },
    waitForStart,
    ...(cache !== undefined ? { index: cacheStore(cache, io) } : {}),
    ...limits,
    ...(state ? { disclosure: { store: state.reveals.revealStore } } : {}),
    log: (entry) => {
      if (LOG_LEVELS.indexOf(entry.level) <= logRank) {
        const line = `[${entry.level}] ${entry.server ? `${entry.server}: ` : ""}${entry.message}`;
        io.stderr(`${redactUrls(line)}\n`);
      }
    },
  });
  const kept = learning.keep(sift);
  const close = kept.close.bind(kept);
  Object.assign(kept, {
    close: async () => {
      embedder?.close();
      await close();
      await logins.close();
    },
  });
  return { mcp, config, sift: kept, learningFile: learning.file, embedder, warn };
}

/** Options of `startGatewayInspector`. */
export interface GatewayInspectorOptions {
  sift: MCPToolSift;
  recorder: SessionRecorder;
  /** Shown on the page: the config file and mode. */
  source: string;
  profile?: string | undefined;
  port: number;
  /** The gateway's bearer token: the inspector's API requires it too. */
  token?: string | undefined;
  /** The config's embedder, so the playground's search is hybrid as the gateway's is. */
  search?: SearchOptionsOfToolSift;
  /** Where the playground's warnings go (an embedder that is down). */
  onWarning?: (message: string) => void;
  /** The gateway's `/mcp` handler when the inspector serves it too. */
  mcp?: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
}

/** Serves the inspector on loopback for a running gateway. */
export async function startGatewayInspector(
  options: GatewayInspectorOptions,
): Promise<InspectorServer> {
  const { sift, recorder } = options;
  // built from the gateway's catalog, again on the first request after it changed (an upstream's
  // list_changed, a restart); the page never runs a tool (it only searches)
  const build = () =>
    createInspectorModel(sift.catalog.list(), {
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
      ...(options.search !== undefined ? { search: options.search } : {}),
      ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
      learning: sift.learning,
    });
  let built = build();
  let stale = false;
  const stopWatching = sift.catalog.onChange(() => {
    stale = true;
  });
  const current = () => {
    if (stale) {
      stale = false;
      built = build();
    }
    return built;
  };
  const model: InspectorModel = {
    get profiles() {
      return current().profiles;
    },
    catalog: (profile) => current().catalog(profile),
    search: (query, searchOptions) => current().search(query, searchOptions),
    cost: (costOptions) => current().cost(costOptions),
  };
  let endpoint: string | undefined;
  const server = await startInspectorServer({
    model,
    port: options.port,
    ...(options.token !== undefined ? { token: options.token } : {}),
    learned: {
      learning: sift.learning,
      tool: (name) => sift.catalog.get(name),
      offMessage: `Learning is off for ${options.source}: serve it without --no-learning, and without "learning": false in the config.`,
    },
    sessions: (): SessionsView => {
      const servers = sift.upstreams.status().map(({ server, state, tools, error }) => ({
        server,
        state,
        tools,
        ...(error !== undefined ? { error: redactUrls(error) } : {}),
      }));
      return {
        attached: true,
        source: options.source,
        // a server going down changes the view as much as a call does
        version: `${recorder.version}:${servers.map((entry) => entry.state).join(",")}`,
        ...(endpoint !== undefined ? { endpoint } : {}),
        servers,
        limits: recorder.limits,
        droppedSessions: recorder.droppedSessions,
        sessions: recorder.sessions(),
      };
    },
    ...(options.mcp ? { mount: { "/mcp": options.mcp } } : {}),
  });
  if (options.mcp) endpoint = `${server.url}mcp`;
  return {
    ...server,
    close: async () => {
      stopWatching();
      await server.close();
    },
  };
}
