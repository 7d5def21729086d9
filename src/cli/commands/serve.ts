import { parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { UsageError } from "../usage-error.js";

export const serveUsage = `Usage: toolsift serve --config FILE [--mode bridge|reveal|direct] [--http HOST:PORT] [--token T] [--log-level LEVEL]

Runs the MCP gateway in front of the config's servers: over stdio (default), or streamable HTTP
at http://HOST:PORT/mcp (--http 8080 means 127.0.0.1:8080; other hosts need --token).
Modes: bridge (default) shows search/describe/call meta tools; reveal shows the search tool plus
the tools each session found; direct shows every tool. Logs go to stderr; LEVEL is error, warn,
info (default) or debug (adds the servers' own stderr).`;

const flags = {
  config: { type: "string" },
  mode: { type: "string" },
  http: { type: "string" },
  token: { type: "string" },
  "log-level": { type: "string" },
} as const;

const LEVELS = ["error", "warn", "info", "debug"] as const;
const MODES = ["bridge", "reveal", "direct"] as const;

/** Reads `--http`: `PORT`, `HOST:PORT` or `[IPv6]:PORT`. */
function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port > 65_535) {
    throw new UsageError(`--http must be PORT or HOST:PORT (e.g. 127.0.0.1:8080), got "${value}".`);
  }
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

/** `toolsift serve`: the MCP gateway; returns when the client goes away or on SIGINT/SIGTERM. */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parseCommand(argv, flags);
  if (!values.config)
    throw new UsageError("--config FILE is required: the upstream servers to serve.");
  const mode = values.mode;
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--mode must be bridge, reveal or direct, got "${mode}".`);
  }
  const level = values["log-level"] ?? "info";
  const rank = (LEVELS as readonly string[]).indexOf(level);
  if (rank === -1)
    throw new UsageError(`--log-level must be error, warn, info or debug, got "${level}".`);
  const listen = values.http === undefined ? undefined : parseListen(values.http);

  const mcp = await loadMCP();
  const config = await mcp.loadGatewayConfig(values.config);
  const pins = config.pinTools
    ? await mcp.loadToolPins(
        config.approvals ?? mcp.defaultApprovalsFile(values.config),
        values.config,
      )
    : undefined;
  const sift = await mcp.createMCPToolSift({
    ...(pins ? { pins } : {}),
    servers: config.servers,
    ...(config.naming ? { naming: config.naming } : {}),
    ...(config.profile ? { policy: { profile: config.profile } } : {}),
    ...(config.budget ? { budget: config.budget } : {}),
    log: (entry) => {
      if (LEVELS.indexOf(entry.level) <= rank) {
        io.stderr(`[${entry.level}] ${entry.server ? `${entry.server}: ` : ""}${entry.message}\n`);
      }
    },
  });
  const options = { sift, mode: (mode ?? config.mode ?? "bridge") as (typeof MODES)[number] };
  let gateway: Awaited<ReturnType<typeof mcp.serveStdio>>;
  try {
    gateway = listen
      ? await mcp.serveHttp({
          ...options,
          ...listen,
          ...(values.token ? { token: values.token } : {}),
        })
      : await mcp.serveStdio(options);
  } catch (error) {
    await sift.close();
    throw error;
  }
  const ready = sift.upstreams.status().filter((status) => status.state !== "down").length;
  io.stderr(
    `toolsift gateway (${options.mode} mode): ${sift.catalog.size} tools from ${ready} server(s)${gateway.url ? ` at ${gateway.url}` : " on stdio"}\n`,
  );
  const stop = () => void gateway.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await gateway.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  return 0;
}
