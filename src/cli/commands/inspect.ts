import { spawn } from "node:child_process";
import { createInspectorModel, startInspectorServer } from "../../inspector/index.js";
import { catalogFlags, integerFlag, parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadTools } from "../load.js";
import { safeText } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const inspectUsage = `Usage: toolsift inspect --catalog PATH [--catalog PATH ...] [--port N] [--host HOST] [--open]
       [--strict] [--duplicates qualify|error]

Serves a local web page to look at a catalog: tools by server with their token cost and policy
state (loaded, deferred, hidden, and by which layer and rule), a search playground (ranked hits,
every scoring factor, what a model receives from tool_search; two queries side by side), the
token cost per provider format (all loaded, first turn, after reveals) under each profile, and
gateway sessions (none yet: no gateway is attached). The page works offline.
--port defaults to any free port. It listens on 127.0.0.1; --host serves another address (the
page has no login: only do that on a network you trust). --open starts the system's browser.
Stop it with Ctrl+C.`;

const flags = {
  ...catalogFlags,
  port: { type: "string" },
  host: { type: "string" },
  open: { type: "boolean" },
} as const;

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Opens the URL in the desktop's browser; a missing opener is reported, never fatal. */
function openBrowser(url: string, io: CliIO): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { stdio: "ignore", detached: true });
  child.on("error", () => io.stderr(`Could not start ${command}; open ${url} yourself.\n`));
  child.unref();
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
  const host = values.host ?? "127.0.0.1";
  if (values.host !== undefined && !LOOPBACK.has(host)) {
    io.stderr(
      `warning: serving the inspector on ${safeText(host, { oneLine: true })}, which is not loopback; anyone who can reach it sees your catalog.\n`,
    );
  }
  const tools = await loadTools(values, io);
  const model = createInspectorModel(tools);
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
  if (values.open) openBrowser(server.url, io);
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
  await server.close();
  return 0;
}
