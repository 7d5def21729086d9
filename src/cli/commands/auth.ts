import { spawn } from "node:child_process";
import { parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { UsageError } from "../usage-error.js";

export const authUsage = `Usage: toolsift auth login SERVER --config FILE [--no-browser] [--state redis://HOST:PORT[/DB]]
       toolsift auth status --config FILE [--state URL]
       toolsift auth logout SERVER --config FILE [--state URL]

login: connects to SERVER (an HTTP server of the config that asks for OAuth), opens the system
browser at its authorization page (with --no-browser, or when no browser opens, prints the
address to open) and waits on 127.0.0.1 for the redirect; the tokens are stored in
$XDG_CONFIG_HOME/toolsift/tokens.json (default ~/.config/toolsift/tokens.json, mode 0600), or,
when the config names a "state" store (or --state is given), in that Redis store, shared by every
replica of the gateway. A running gateway picks the login up without a restart.
status: each HTTP server's login: logged in (and until when), no login, or OAuth off.
logout: forgets SERVER's tokens and registration (on every replica, with a state store).`;

const flags = {
  config: { type: "string" },
  "no-browser": { type: "boolean" },
  state: { type: "string" },
} as const;

type MCP = Awaited<ReturnType<typeof loadMCP>>;

/** Where logins are kept: the replicas' state store (`--state`, else the config's `state`) when
 * there is one, so the gateway's replicas use the login; else the file under the config dir. */
async function openTokenStore(mcp: MCP, flag: string | undefined, configured: string | undefined) {
  const url = flag ?? configured;
  if (url === undefined) return { store: mcp.createTokenStore(), close: async () => undefined };
  const state = await mcp.createRedisSessionStore({ url });
  return { store: mcp.createSharedTokenStore(state), close: () => state.close() };
}

/** `toolsift auth`: log in to, list and log out of OAuth upstreams. */
export async function authCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  const [action, server, extra] = positionals;
  if (action !== "login" && action !== "status" && action !== "logout") {
    throw new UsageError(
      `Expected "login SERVER", "status" or "logout SERVER" after "auth"${action ? `, got "${action}"` : ""}.`,
    );
  }
  if (!values.config) throw new UsageError("--config FILE is required: the gateway config.");
  if (extra !== undefined || (action === "status" && server !== undefined)) {
    throw new UsageError(`Unexpected argument "${extra ?? server}".`);
  }
  const mcp = await loadMCP();
  const config = await mcp.loadGatewayConfig(values.config);
  const { store, close } = await openTokenStore(mcp, values.state, config.state);
  try {
    return await runAuthAction(mcp, { action, server, config, store, io, values });
  } finally {
    await close();
  }
}

/** One `auth` action against `store`. */
async function runAuthAction(
  mcp: MCP,
  context: {
    action: "login" | "status" | "logout";
    server: string | undefined;
    config: Awaited<ReturnType<MCP["loadGatewayConfig"]>>;
    store: ReturnType<MCP["createTokenStore"]>;
    io: CliIO;
    values: { config?: string; "no-browser"?: boolean };
  },
): Promise<number> {
  const { action, server, config, store, io, values } = context;
  if (action === "status") {
    const remote = Object.entries(config.servers).flatMap(([name, entry]) =>
      "command" in entry ? [] : [{ name, entry }],
    );
    // a blank answer would read as "nothing logged in" or a broken command
    if (remote.length === 0) {
      io.stdout(
        `No HTTP servers in ${values.config}: logins are for servers with a "url" (stdio servers start with their own "env").\n`,
      );
    }
    for (const { name, entry } of remote) {
      const login = await store.get(name, entry.url);
      io.stdout(`${name.padEnd(20)} ${describeLogin(entry, login)}\n`);
    }
    return 0;
  }
  if (server === undefined) throw new UsageError(`"auth ${action}" needs the SERVER name.`);
  const chosen = config.servers[server];
  if (chosen === undefined || "command" in chosen) {
    const remote = Object.entries(config.servers)
      .filter(([, entry]) => !("command" in entry))
      .map(([name]) => name);
    throw new UsageError(
      `No HTTP server "${server}" in ${values.config}; HTTP servers: ${remote.join(", ") || "none"}.`,
    );
  }
  if (action === "logout") {
    const removed = await store.remove(server, chosen.url);
    io.stdout(removed ? `Logged out of ${server}.\n` : `No login was stored for ${server}.\n`);
    return 0;
  }
  const outcome = await mcp.loginUpstream(server, chosen, {
    store,
    openUrl: (url) => openInBrowser(url, io, values["no-browser"] === true),
  });
  const until = outcome.expiresAt ? `, token valid until ${isoMinute(outcome.expiresAt)}` : "";
  io.stdout(`Logged in to ${server} (${outcome.tools} tools${until}).\n`);
  return 0;
}

function isoMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** One status line; never a token, only whether there is one and until when. */
function describeLogin(
  server: { auth?: unknown; headers?: Readonly<Record<string, string>> },
  login: { tokens?: Record<string, unknown>; expiresAt?: number; wantedScope?: string } | undefined,
): string {
  if (server.auth === false) return "OAuth off";
  if (Object.keys(server.headers ?? {}).some((key) => key.toLowerCase() === "authorization")) {
    return "fixed Authorization header";
  }
  if ((server.auth as { grant?: string } | undefined)?.grant === "client_credentials") {
    return "client_credentials (no login needed)";
  }
  if (login?.tokens === undefined) return "no login";
  const refresh = login.tokens.refresh_token !== undefined ? ", refreshable" : "";
  const expiry =
    login.expiresAt === undefined
      ? ""
      : login.expiresAt > Date.now()
        ? `, access token until ${isoMinute(login.expiresAt)}`
        : `, access token expired ${isoMinute(login.expiresAt)}`;
  const stepUp = login.wantedScope ? `; needs a new login for scope "${login.wantedScope}"` : "";
  return `logged in${expiry}${refresh}${stepUp}`;
}

/** Opens `url` in the system browser; prints it when asked to, or when that fails. */
async function openInBrowser(url: URL, io: CliIO, printOnly: boolean): Promise<void> {
  const print = () => io.stderr(`Open this address in a browser to log in:\n${url.href}\n`);
  if (printOnly) return print();
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url.href]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url.href]]
        : ["xdg-open", [url.href]];
  const opened = await new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
    child.unref();
  });
  if (opened) io.stderr("Opened the browser to log in; waiting for it to come back…\n");
  else print();
}
