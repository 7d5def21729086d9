import { spawn } from "node:child_process";
import {
  createInspectorModel,
  type InspectorServer,
  startInspectorServer,
} from "../../inspector/index.js";
import { catalogFlags, integerFlag, parseCommand } from "../args.js";
import {
  embedderFlags,
  embedderUsage,
  openFlagEmbedder,
  warningPrinter,
} from "../embedder-flags.js";
import { logLevelFlag, modeFlag, openGatewaySift, startGatewayInspector } from "../gateway.js";
import { cacheDir, cacheFlags } from "../index-cache.js";
import type { CliIO } from "../io.js";
import { loadTools } from "../load.js";
import { safeText } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const inspectUsage = `Usage: toolsift inspect --catalog PATH [--catalog PATH ...] [--port N] [--host HOST] [--open]
       [--strict] [--duplicates qualify|error] [--embedder FILE.json | --embedder-url URL ...]
       [--cache DIR | --no-cache]
   or: toolsift inspect --config FILE [--mode bridge|reveal|direct] [--port N] [--open] [--log-level LEVEL]
       [--no-learning] [--cache DIR | --no-cache]

Serves a local web page to look at a catalog: tools by server with their token cost and policy
state (loaded, deferred, hidden, and by which layer and rule), a search playground (ranked hits,
every scoring factor, what a model receives from tool_search; two queries side by side), the
token cost per provider format (all loaded, first turn, after reveals) under each profile, and
gateway sessions. The page works offline.
With --config it starts the gateway of that config (as toolsift serve does) in this process and
serves its streamable-HTTP MCP endpoint on the same port, at /mcp: point an MCP client there and
its searches, reveals and calls appear live under Sessions. To watch a stdio gateway that Claude
Desktop or Cursor starts, use toolsift serve --config FILE --inspect instead.
--port defaults to any free port. It listens on 127.0.0.1; --host serves another address (the
page has no login: only do that on a network you trust; not with --config). --open starts the
system's browser. Stop it with Ctrl+C.
--no-learning (with --config) runs the gateway without learning from use, as serve --no-learning.
${embedderUsage} With --config, the config's "embedder" block does this.`;

const flags = {
  ...catalogFlags,
  config: { type: "string" },
  mode: { type: "string" },
  "log-level": { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  open: { type: "boolean" },
  "no-learning": { type: "boolean" },
  ...cacheFlags,
  ...embedderFlags,
} as const;

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

type Values = ReturnType<typeof parseCommand<typeof flags>>["values"];

/** Opens the URL in the desktop's browser; a missing opener is reported, never fatal. */
function openBrowser(url: string, io: CliIO): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { stdio: "ignore", detached: true });
  child.on("error", () => io.stderr(`Could not start ${command}; open ${url} yourself.\n`));
  child.unref();
}

/** The inspector of catalog files; nothing to close but the server. */
async function serveCatalogs(values: Values, port: number, io: CliIO) {
  const host = values.host ?? "127.0.0.1";
  if (values.host !== undefined && !LOOPBACK.has(host)) {
    io.stderr(
      `warning: serving the inspector on ${safeText(host, { oneLine: true })}, which is not loopback; anyone who can reach it sees your catalog.\n`,
    );
  }
  const embedder = await openFlagEmbedder(values, io);
  const tools = await loadTools(values, io);
  const model = createInspectorModel(
    tools,
    embedder ? { search: embedder.search, onWarning: warningPrinter(io) } : {},
  );
  // the first views are computed before the page is served, so it opens at once
  io.stderr(`counting tokens of ${tools.length} tools (catalog and cost views)...\n`);
  model.catalog();
  await model.cost();
  const server = await startInspectorServer({
    model,
    host,
    port,
    allowRemote: values.host !== undefined,
  });
  io.stderr(`toolsift inspector: ${tools.length} tools at ${server.url} (Ctrl+C stops it)\n`);
  return {
    server,
    close: async () => {
      await server.close();
      embedder?.close();
    },
  };
}

/** The gateway of a config file, its /mcp endpoint served by the inspector, on loopback. */
async function serveGateway(config: string, values: Values, port: number, io: CliIO) {
  const mode = modeFlag(values.mode);
  const {
    mcp,
    config: read,
    sift,
    embedder,
    warn,
  } = await openGatewaySift(config, io, logLevelFlag(values["log-level"]), {
    learningOn: values["no-learning"] !== true,
    vectorCache: cacheDir(values, io.env ?? process.env),
  });
  const recorder = mcp.createSessionRecorder();
  const gatewayMode = mode ?? read.mode ?? "bridge";
  let gateway: ReturnType<typeof mcp.createHttpGateway> | undefined;
  let server: InspectorServer;
  try {
    gateway = mcp.createHttpGateway({ sift, mode: gatewayMode, recorder });
    server = await startGatewayInspector({
      sift,
      recorder,
      source: `${config} (${gatewayMode} mode)`,
      profile: read.profile,
      ...(embedder ? { search: embedder.search } : {}),
      onWarning: warn,
      port,
      mcp: gateway.handle,
    });
  } catch (error) {
    await gateway?.close();
    await sift.close();
    throw error;
  }
  const ready = sift.upstreams.status().filter((status) => status.state !== "down").length;
  io.stderr(
    `toolsift inspector: ${sift.catalog.size} tools from ${ready} server(s) at ${server.url}\n` +
      `toolsift gateway (${gatewayMode} mode): MCP clients connect to ${server.url}mcp (Ctrl+C stops both)\n`,
  );
  return {
    server,
    close: async () => {
      await server.close();
      await gateway?.close();
      await sift.close();
    },
  };
}

/** `toolsift inspect`: serves the inspector until SIGINT/SIGTERM (or `signal` aborts, in tests). */
export async function inspectCommand(
  argv: readonly string[],
  io: CliIO,
  signal?: AbortSignal,
): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const port = integerFlag(values.port, "port", { min: 0, max: 65_535 }, 0);
  if (values.config !== undefined && values.catalog !== undefined) {
    throw new UsageError(
      "Pass --catalog PATH or --config FILE, not both: with --config the catalog is the gateway's.",
    );
  }
  const embedderFlag = Object.keys(embedderFlags).find((flag) => flag in values);
  if (values.config !== undefined && embedderFlag !== undefined) {
    throw new UsageError(
      `--${embedderFlag} does not go with --config: write an "embedder" block in the config (docs/semantic-search.md).`,
    );
  }
  if (values.config === undefined && values["no-learning"] === true) {
    throw new UsageError(
      "--no-learning goes with --config: a catalog file's inspector learns nothing anyway.",
    );
  }
  if (values.config !== undefined && values.host !== undefined) {
    throw new UsageError(
      "--host does not go with --config: the gateway's tools would be callable from the network. Use toolsift serve --http HOST:PORT --token T for that.",
    );
  }
  const running =
    values.config !== undefined
      ? await serveGateway(values.config, values, port, io)
      : await serveCatalogs(values, port, io);
  if (values.open) openBrowser(running.server.url, io);
  let stop = () => {};
  await new Promise<void>((resolve) => {
    stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    signal?.addEventListener("abort", stop, { once: true });
    if (signal?.aborted) stop();
  });
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  await running.close();
  return 0;
}
