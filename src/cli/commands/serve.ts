import { integerFlag, parseCommand } from "../args.js";
import { logLevelFlag, modeFlag, openGatewaySift, startGatewayInspector } from "../gateway.js";
import type { CliIO } from "../io.js";
import { UsageError } from "../usage-error.js";

export const serveUsage = `Usage: toolsift serve --config FILE [--mode bridge|reveal|direct] [--http HOST:PORT] [--token T] [--log-level LEVEL]
       [--inspect] [--inspect-port N]

Runs the MCP gateway in front of the config's servers: over stdio (default), or streamable HTTP
at http://HOST:PORT/mcp (--http 8080 means 127.0.0.1:8080; other hosts need --token).
Modes: bridge (default) shows search/describe/call meta tools; reveal shows the search tool plus
the tools each session found; direct shows every tool. Logs go to stderr; LEVEL is error, warn,
info (default) or debug (adds the servers' own stderr).
--inspect also serves the inspector on 127.0.0.1 (any free port; --inspect-port N picks one,
and implies --inspect) with a live Sessions view of this gateway; its URL goes to stderr, so a
stdio gateway started by Claude Desktop or Cursor can be watched in a browser.`;

const flags = {
  config: { type: "string" },
  mode: { type: "string" },
  http: { type: "string" },
  token: { type: "string" },
  "log-level": { type: "string" },
  inspect: { type: "boolean" },
  "inspect-port": { type: "string" },
} as const;

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
  const mode = modeFlag(values.mode);
  const rank = logLevelFlag(values["log-level"]);
  const listen = values.http === undefined ? undefined : parseListen(values.http);
  const inspectPort =
    values.inspect || values["inspect-port"] !== undefined
      ? integerFlag(values["inspect-port"], "inspect-port", { min: 0, max: 65_535 }, 0)
      : undefined;

  const { mcp, config, sift } = await openGatewaySift(values.config, io, rank);
  const recorder = inspectPort === undefined ? undefined : mcp.createSessionRecorder();
  const options = {
    sift,
    mode: mode ?? config.mode ?? "bridge",
    ...(recorder ? { recorder } : {}),
  };
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
  const ready = sift.upstreams
    .status()
    .filter((status) => status.state !== "down" && status.state !== "needs_login").length;
  io.stderr(
    `toolsift gateway (${options.mode} mode): ${sift.catalog.size} tools from ${ready} server(s)${gateway.url ? ` at ${gateway.url}` : " on stdio"}\n`,
  );
  const inspector =
    recorder && inspectPort !== undefined
      ? await startGatewayInspector({
          sift,
          recorder,
          source: `${values.config} (${options.mode} mode)`,
          profile: config.profile,
          port: inspectPort,
        }).catch(async (error: unknown) => {
          await gateway.close();
          throw error;
        })
      : undefined;
  if (inspector) io.stderr(`toolsift inspector: sessions of this gateway at ${inspector.url}\n`);
  const stop = () => void gateway.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await gateway.closed;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  await inspector?.close();
  return 0;
}
