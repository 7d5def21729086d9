import { readFile } from "node:fs/promises";
import type { MCPToolSift, SessionRecorder } from "../../mcp/index.js";
import { integerFlag, parseCommand } from "../args.js";
import {
  type GatewayInspectorOptions,
  logLevelFlag,
  modeFlag,
  type OpenGatewayOptions,
  openGatewaySift,
  startGatewayInspector,
} from "../gateway.js";
import { cacheDir, cacheFlags } from "../index-cache.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { UsageError } from "../usage-error.js";

export const serveUsage = `Usage: toolsift serve --config FILE [--mode bridge|reveal|direct] [--http HOST:PORT] [--token-file F] [--log-level LEVEL]
       [--inspect] [--inspect-port N] [--max-body-bytes N] [--max-sessions N] [--session-idle-ms N]
       [--max-subscriptions N] [--state redis://HOST:PORT[/DB]] [--otel] [--no-learning]
       [--auth-issuer URL --auth-audience AUD [--auth-scopes a,b]] [--cache DIR | --no-cache]
       [--no-warm-up]

Runs the MCP gateway in front of the config's servers: over stdio (default), or streamable HTTP
at http://HOST:PORT/mcp (--http 8080 means 127.0.0.1:8080; other hosts need a token or an identity
provider, below).
Modes: bridge (default) shows search/describe/call meta tools; reveal shows the search tool plus
the tools each session found; direct shows every tool. Logs go to stderr; LEVEL is error, warn,
info (default) or debug (adds the servers' own stderr).
--inspect also serves the inspector on 127.0.0.1 (any free port; --inspect-port N picks one,
and implies --inspect) with a live Sessions view of this gateway; its URL goes to stderr, so a
stdio gateway started by Claude Desktop or Cursor can be watched in a browser.
Token (HTTP): --token-file F reads it from a file (trailing newline ignored); TOOLSIFT_TOKEN
from the environment otherwise. --token T works too, but a command line is
visible to other local users (ps); prefer the file or the variable. Every request, and the inspector's API, then
needs Authorization: Bearer TOKEN (open the inspector once as URL?token=TOKEN).
Identity provider (HTTP): --auth-issuer URL --auth-audience AUD [--auth-scopes a,b] (or an
"auth" block in the config) requires a JWT access token from that issuer, for that audience, with
those scopes, instead of a shared token; clients find the issuer at
/.well-known/oauth-protected-resource. Each session belongs to its token's subject (needs npm
install jose); "auth.profiles" in the config gives it a policy profile by a claim (docs/auth.md).
HTTP limits: --max-body-bytes (default 4194304: 413 past it), --max-sessions (default 100: 503
past it), --session-idle-ms (default 1800000: idle sessions are closed and their state freed).
Per session (HTTP and stdio): --max-subscriptions (default 1000 resources/subscribe at once; past
it a subscribe fails saying so; unsubscribing or closing the session frees them).
Replicas (HTTP): --state redis://HOST:PORT[/DB] (or "state" in the config) keeps sessions and
reveals in Redis, so any replica behind a load balancer serves any session (needs npm install
redis). GET /healthz answers 200 while the process runs; GET /readyz 200 when the upstreams and
the store are up, 503 with the reason otherwise. SIGTERM stops accepting, lets calls in flight
finish (up to 10 s), then exits.
--otel records OpenTelemetry spans and metrics per call (names, outcomes, token counts and
durations, never argument values) through @opentelemetry/api (npm install it); the process's
registered OpenTelemetry SDK exports them (e.g. OTLP, see docs/deploy.md).
Search index cache (on by default): the index over the servers' tools is built at the first
search, from a saved index of the same tools in the CLI's cache ($XDG_CACHE_HOME/toolsift, or
--cache DIR; --no-cache turns it off) when there is one, so a restart skips the build.
Learning (on by default): searches followed by a call of a found tool teach search which words
mean which tool; only query words, tool names and hashed session ids are kept, in
$XDG_STATE_HOME/toolsift/learning/ (default ~/.local/state/toolsift/learning/; "learning":
{"file": F} in the config moves it). --no-learning or "learning": false turns it off;
"toolsift learning show|erase --config FILE" lists or erases what was learned.
Semantic search: an "embedder" block in the config (an OpenAI-compatible endpoint or a
word-vector file, docs/semantic-search.md) makes tool_search hybrid. Tool vectors are cached in
$XDG_CACHE_HOME/toolsift (default ~/.cache/toolsift; --cache DIR moves it, --no-cache keeps none),
so a restart embeds only new or changed tools; an endpoint that is down leaves search lexical.
Warm-up (on by default): once serving, the gateway runs the MCP SDK's message checks ahead on a
sample call, in slices that yield to real messages, so its first calls are not slowed by
compiling them (a few hundred ms of CPU, once); --no-warm-up skips it.
Host, token, port and config problems are reported before any server starts.`;

const flags = {
  config: { type: "string" },
  mode: { type: "string" },
  http: { type: "string" },
  token: { type: "string" },
  "token-file": { type: "string" },
  "log-level": { type: "string" },
  inspect: { type: "boolean" },
  "inspect-port": { type: "string" },
  "max-body-bytes": { type: "string" },
  "max-sessions": { type: "string" },
  "session-idle-ms": { type: "string" },
  "max-subscriptions": { type: "string" },
  state: { type: "string" },
  otel: { type: "boolean" },
  "no-learning": { type: "boolean" },
  "no-warm-up": { type: "boolean" },
  ...cacheFlags,
  "auth-issuer": { type: "string" },
  "auth-audience": { type: "string" },
  "auth-scopes": { type: "string" },
} as const;

/** The HTTP token: `--token`, or `--token-file F` (not both), else `TOOLSIFT_TOKEN`. */
export async function resolveToken(
  values: { token?: string | undefined; "token-file"?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const file = values["token-file"];
  if (values.token !== undefined && file !== undefined) {
    throw new UsageError("Pass one of --token and --token-file, not both.");
  }
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `--token-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path.`,
      );
    }
    const token = text.trim();
    if (token === "") throw new UsageError(`--token-file ${file} is empty; write the token in it.`);
    return token;
  }
  if (values.token !== undefined) return values.token;
  const fromEnv = env.TOOLSIFT_TOKEN?.trim();
  return fromEnv ? fromEnv : undefined;
}

/** The identity provider protecting the HTTP gateway: the `--auth-*` flags over the config's
 * `auth` block; undefined when neither names an issuer. */
async function resolveGatewayAuth(
  values: Record<string, string | boolean | undefined>,
  mcp: Awaited<ReturnType<typeof loadMCP>>,
  configPath: string,
  http: boolean,
) {
  const flagged = ["auth-issuer", "auth-audience", "auth-scopes"].filter(
    (flag) => values[flag] !== undefined,
  );
  if (flagged.length > 0 && !http) {
    throw new UsageError(
      `--${flagged[0]} protects the HTTP gateway; add --http HOST:PORT (a stdio gateway has one local client).`,
    );
  }
  const configured = http ? (await mcp.loadGatewayConfig(configPath)).auth : undefined;
  const issuer = (values["auth-issuer"] as string | undefined) ?? configured?.issuer;
  if (issuer === undefined) {
    if (flagged.length > 0) {
      throw new UsageError(`--${flagged[0]} needs --auth-issuer URL (the identity provider).`);
    }
    return undefined;
  }
  const audience = (values["auth-audience"] as string | undefined) ?? configured?.audience;
  if (audience === undefined) {
    throw new UsageError(
      "--auth-issuer needs --auth-audience AUD: the aud its tokens carry for this gateway (best the gateway's public URL, e.g. https://mcp.example.com/mcp).",
    );
  }
  const listed = values["auth-scopes"] as string | undefined;
  const scopes =
    listed === undefined
      ? configured?.scopes
      : listed
          .split(",")
          .map((scope) => scope.trim())
          .filter(Boolean);
  return {
    issuer,
    audience,
    ...(scopes ? { scopes } : {}),
    ...(configured?.resource ? { resource: configured.resource } : {}),
    // the profile of each user's sessions comes from the config only (no flags)
    ...(configured?.profiles ? { profiles: configured.profiles } : {}),
    ...(configured?.defaultProfile ? { defaultProfile: configured.defaultProfile } : {}),
  };
}

/** Reads the HTTP limit flags; absent ones keep the gateway's defaults. */
function limitFlags(values: Record<string, string | boolean | undefined>) {
  const read = (flag: string, key: string, max: number) => {
    const value = values[flag];
    if (typeof value !== "string") return {};
    return { [key]: integerFlag(value, flag, { min: 1, max }, 1) };
  };
  return {
    ...read("max-body-bytes", "maxBodyBytes", 2 ** 31),
    ...read("max-sessions", "maxSessions", 1_000_000),
    ...read("session-idle-ms", "sessionIdleMs", 2 ** 31 - 1),
  };
}

/** Reads `--max-subscriptions` (per session, stdio or HTTP); absent keeps the default. */
function subscriptionFlag(value: string | undefined): { maxSubscriptions?: number } {
  if (value === undefined) return {};
  return {
    maxSubscriptions: integerFlag(value, "max-subscriptions", { min: 1, max: 1_000_000 }, 1),
  };
}

/** Reads `--http`: `PORT`, `HOST:PORT` or `[IPv6]:PORT`. */
function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port > 65_535) {
    throw new UsageError(`--http must be PORT or HOST:PORT (e.g. 127.0.0.1:8080), got "${value}".`);
  }
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

/** The state shared with other replicas, from `--state` or the config's `state`; none without
 * either (sessions stay in this process). */
async function openReplicaState(
  mcp: Awaited<ReturnType<typeof loadMCP>>,
  configPath: string,
  flag: string | undefined,
) {
  const url = flag ?? (await mcp.loadGatewayConfig(configPath)).state;
  if (url === undefined) return undefined;
  return mcp.createReplicaState(await mcp.createRedisSessionStore({ url }));
}

/** The served ToolSift, its reveals and approvals in the replicas' store when there is one. Clients get their
 * answer at once; each upstream's tools join (announced with tools/list_changed) as it comes up. */
async function openServedSift(
  configPath: string,
  io: CliIO,
  rank: number,
  options: OpenGatewayOptions,
) {
  return openGatewaySift(configPath, io, rank, { ...options, waitForStart: false }).catch(
    async (error: unknown) => {
      await options.state?.store.close();
      throw error;
    },
  );
}

/** A server that is up (not down, waiting for a login, or still starting in the background). */
const isServing = (status: { server: string; state: string }, pending: readonly string[]) =>
  status.state !== "down" && status.state !== "needs_login" && !pending.includes(status.server);

/** The line on stderr saying what is served, and where. */
function announceGateway(
  io: CliIO,
  sift: Awaited<ReturnType<typeof openGatewaySift>>["sift"],
  mode: string,
  url: string | undefined,
): void {
  const pending = sift.upstreams.notReady();
  const ready = sift.upstreams.status().filter((status) => isServing(status, pending)).length;
  io.stderr(
    `toolsift gateway (${mode} mode): ${sift.catalog.size} tools from ${ready} server(s)${pending.length > 0 ? `, ${pending.length} starting` : ""}${url ? ` at ${url}` : " on stdio"}\n`,
  );
}

/** The command line read and checked: everything that can be wrong with it is said here, before
 * any upstream server starts. */
async function checkServeFlags(argv: readonly string[], io: CliIO) {
  const { values } = parseCommand(argv, flags);
  if (!values.config)
    throw new UsageError("--config FILE is required: the upstream servers to serve.");
  const listen = values.http === undefined ? undefined : parseListen(values.http);
  const inspectPort =
    values.inspect || values["inspect-port"] !== undefined
      ? integerFlag(values["inspect-port"], "inspect-port", { min: 0, max: 65_535 }, 0)
      : undefined;
  const token = await resolveToken(values, io.env ?? {});
  const limits = limitFlags(values);
  const mcpModule = await loadMCP();
  const auth = await resolveGatewayAuth(values, mcpModule, values.config, listen !== undefined);
  const guard = { ...(token ? { token } : {}), ...(auth ? { auth } : {}) };
  if (listen) await mcpModule.checkHttpListen({ ...listen, ...limits, ...guard });
  if (auth) await mcpModule.checkGatewayAuth(auth);
  if (inspectPort) await mcpModule.checkHttpListen({ host: "127.0.0.1", port: inspectPort });
  return {
    values,
    config: values.config,
    mode: modeFlag(values.mode),
    rank: logLevelFlag(values["log-level"]),
    listen,
    inspectPort,
    token,
    limits,
    guard,
    subscriptions: subscriptionFlag(values["max-subscriptions"]),
    mcpModule,
    telemetry: values.otel ? await mcpModule.loadGatewayTelemetry() : undefined,
  };
}

/** The inspector beside a running gateway (`--inspect`); a failure to start it stops the gateway. */
async function startServeInspector(
  io: CliIO,
  flagged: Awaited<ReturnType<typeof checkServeFlags>>,
  served: {
    sift: MCPToolSift;
    recorder: SessionRecorder;
    mode: string;
    profile?: string;
    search?: GatewayInspectorOptions["search"];
    onWarning?: (message: string) => void;
  },
  gateway: { close(): Promise<void> },
) {
  const { listen, token, inspectPort = 0 } = flagged;
  const inspector = await startGatewayInspector({
    sift: served.sift,
    recorder: served.recorder,
    source: `${flagged.config} (${served.mode} mode)`,
    profile: served.profile,
    ...(served.search ? { search: served.search } : {}),
    ...(served.onWarning ? { onWarning: served.onWarning } : {}),
    port: inspectPort,
    // the inspector shows every call's arguments: it needs the gateway's token too
    ...(listen && token ? { token } : {}),
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw error;
  });
  const login = listen && token ? " (open it once as URL?token=TOKEN)" : "";
  io.stderr(`toolsift inspector: sessions of this gateway at ${inspector.url}${login}\n`);
  return inspector;
}

/** `toolsift serve`: the MCP gateway; returns when the client goes away or on SIGINT/SIGTERM. */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const flagged = await checkServeFlags(argv, io);
  const { values, listen, inspectPort, limits, telemetry, mcpModule } = flagged;
  const state = listen
    ? await openReplicaState(mcpModule, flagged.config, values.state)
    : undefined;
  const cache = cacheDir(values, io.env ?? process.env);
  const { mcp, config, sift, embedder, warn } = await openServedSift(
    flagged.config,
    io,
    flagged.rank,
    {
      state,
      limits: flagged.subscriptions,
      learningOn: values["no-learning"] !== true,
      vectorCache: cache,
      cache,
    },
  );
  const recorder = inspectPort === undefined ? undefined : mcp.createSessionRecorder();
  telemetry?.watchUpstreams(sift);
  const options = {
    sift,
    mode: flagged.mode ?? config.mode ?? "bridge",
    warmUp: values["no-warm-up"] !== true,
    ...(recorder ? { recorder } : {}),
    ...(telemetry ? { telemetry } : {}),
  };
  let gateway: Awaited<ReturnType<typeof mcp.serveStdio>>;
  try {
    gateway = listen
      ? await mcp.serveHttp({
          ...options,
          ...listen,
          ...limits,
          ...flagged.guard,
          ...(state ? { state } : {}),
        })
      : await mcp.serveStdio(options);
  } catch (error) {
    await sift.close();
    await state?.store.close();
    throw error;
  }
  announceGateway(io, sift, options.mode, gateway.url);
  const inspector = recorder
    ? await startServeInspector(
        io,
        flagged,
        {
          sift,
          recorder,
          mode: options.mode,
          ...(config.profile ? { profile: config.profile } : {}),
          ...(embedder ? { search: embedder.search } : {}),
          onWarning: warn,
        },
        gateway,
      )
    : undefined;
  const stop = () => void gateway.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await gateway.closed;
  await state?.store.close();
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  await inspector?.close();
  return 0;
}
