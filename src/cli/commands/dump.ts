import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { UsageError } from "../usage-error.js";

export const dumpUsage = `Usage: toolsift dump --config FILE [--out DIR]

Starts every enabled server of the gateway config, lists its tools, and writes each server's
tools/list as DIR/SERVER.json (default DIR: toolsift-catalogs). The files are catalogs the other
commands read (--catalog DIR), and the "catalog" a lazy server starts from.`;

const flags = { config: { type: "string" }, out: { type: "string" } } as const;

/** `toolsift dump`: each live server's tools/list as a catalog file. */
export async function dumpCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (!values.config)
    throw new UsageError("--config FILE is required: the gateway config to dump.");
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const mcp = await loadMCP();
  const config = await mcp.loadGatewayConfig(values.config);
  const out = values.out ?? "toolsift-catalogs";
  // dumping means asking every server now: lazy ones start too, and known tools are not used
  const servers = Object.fromEntries(
    Object.entries(config.servers).map(([name, server]) => {
      const { lazy: _lazy, tools: _tools, ...live } = server;
      return [name, live];
    }),
  );
  const sift = await mcp.createMCPToolSift({
    servers,
    log: (entry) => {
      if (entry.level === "error") io.stderr(`${entry.server ?? "gateway"}: ${entry.message}\n`);
    },
  });
  try {
    await mkdir(out, { recursive: true });
    let failed = 0;
    for (const status of sift.upstreams.status()) {
      if (status.state !== "ready") {
        failed += 1;
        continue;
      }
      const tools = sift.catalog
        .list()
        .filter((tool) => tool.server === status.server)
        .map((tool) => sift.upstreams.upstreamTool(tool.name))
        .filter((tool) => tool !== undefined)
        .map((tool) => ({ ...tool, server: status.server }));
      const file = path.join(out, `${status.server}.json`);
      await writeFile(file, `${JSON.stringify({ tools }, null, 2)}\n`);
      io.stdout(`${status.server}: ${tools.length} tools -> ${file}\n`);
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await sift.close();
  }
}
