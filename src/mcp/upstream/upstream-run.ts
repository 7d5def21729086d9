/**
 * What one upstream knows while it runs (`UpstreamRun`), and the small moves on it that starting
 * (start-upstream.ts) and calling (call-upstream.ts) share: logging in, being logged out, and
 * publishing a tool listing. `upstream-server.ts` creates the run; only these files change it.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  createUpstreamAuth,
  type UpstreamAuth,
  type UpstreamAuthOptions,
} from "../auth/upstream-auth.js";
import type { RelayTracker } from "../relay/relay-tracker.js";
import type { MCPLogEntry, UpstreamServerConfig } from "../types.js";
import type { RestartGate } from "./restart-gate.js";
import { type ConnectHooks, closeConnection, type UpstreamConnection } from "./upstream-connect.js";
import type { UpstreamLife } from "./upstream-state.js";
import { listAllTools } from "./upstream-transport.js";

/** One settled start of an upstream: which kind, whether it came up, and how long it took. */
export interface UpstreamStart {
  kind: "start" | "restart" | "login";
  ok: boolean;
  durationMs: number;
}

/** Everything one upstream knows while it runs; changed only by the functions of this folder's
 * upstream-run.ts, start-upstream.ts and call-upstream.ts. */
export interface UpstreamRun {
  readonly name: string;
  readonly config: UpstreamServerConfig;
  readonly log: (entry: MCPLogEntry) => void;
  /** Called with the full tool list after every (re)listing. */
  readonly onTools: (tools: readonly Tool[]) => void;
  /** Called as each start settles. */
  readonly onStarted: (start: UpstreamStart) => void;
  readonly life: UpstreamLife;
  readonly gate: RestartGate;
  readonly relays: RelayTracker;
  readonly hooks: Omit<ConnectHooks, "opened">;
  readonly callTimeoutMs: number;
  readonly startTimeoutMs: number;
  /** The OAuth of an HTTP server, or the config problem that stops it from starting. */
  readonly login: Login;
  /** Stops watching the token store for a login. */
  stopWatching: (() => void) | undefined;
  /** The open connection: set from the handshake on (so a listing can read its instructions). */
  connection: UpstreamConnection | undefined;
  /** The start under way, which concurrent callers share. */
  starting: Promise<void> | undefined;
  toolCount: number;
  lastError: string | undefined;
  /** Calls in flight that want progress (see `holdResponsesBehindProgress`). */
  progressCalls: number;
  /** The connection whose first `list_changed` was logged at info level. */
  announcedFor: UpstreamConnection | undefined;
  /** The re-listing under way after `list_changed`, and the connection that announced another
   * change since it began, to list once more (start-upstream.ts, `relistInto`). */
  relisting: Promise<void> | undefined;
  relistAgain: UpstreamConnection | undefined;
}

/** The auth of an HTTP upstream, or the config problem that stops it from starting. */
export interface Login {
  auth?: UpstreamAuth;
  problem?: string;
}

/** The login of an upstream: none for stdio, the OAuth of an HTTP server, or why its auth
 * config cannot work (reported when it starts). */
export function createLogin(
  name: string,
  config: UpstreamServerConfig,
  options: UpstreamAuthOptions | undefined,
): Login {
  if ("command" in config) return {};
  try {
    const auth = createUpstreamAuth(name, config, options);
    return auth ? { auth } : {};
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Runs `attempt`, finishing an interactive login it started and running it once more. */
export const retryingLogin = <T>(run: UpstreamRun, attempt: () => Promise<T>): Promise<T> =>
  run.login.auth ? run.login.auth.retrying(attempt) : attempt();

/** A login ran out (refresh refused) mid-session: the server waits for a new one. */
export function loggedOut(run: UpstreamRun, needed: string): void {
  if (run.life.state !== "ready") return;
  const connection = run.connection;
  run.connection = undefined;
  run.life.advance("needsLogin");
  run.lastError = needed;
  run.log({ level: "warn", server: run.name, message: needed });
  if (connection) void closeConnection(connection);
}

/** Keeps the count of a new listing and hands it on. */
export const publish = (run: UpstreamRun, tools: readonly Tool[]) => {
  run.toolCount = tools.length;
  run.onTools(tools);
};

/** Every page of the server's tools, within its start limit per page; a cut is a warning. */
export const listFrom = (run: UpstreamRun, connected: Parameters<typeof listAllTools>[0]) =>
  listAllTools(connected, run.startTimeoutMs, (message) =>
    run.log({ level: "warn", server: run.name, message }),
  );
