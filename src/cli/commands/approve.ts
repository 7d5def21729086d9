import { parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { loadMCP } from "../load-mcp.js";
import { UsageError } from "../usage-error.js";

export const approveUsage = `Usage: toolsift approve --config FILE [--server S] [--tool T | --all] [--approvals FILE]

With "pinTools": true in the config, the gateway holds back a tool whose title, annotations,
description or schema changed since it was approved, and a tool its server added after its tools
were approved (new). This starts the servers (all, or S), compares each tool with its approved
fingerprint, and approves tool T (its upstream name, or the gateway's server__tool name) or, with
--all, every tool; without either it lists the new, changed and outdated (approved before titles
and annotations were pinned) tools. Approvals are kept
in FILE (default: the config's "approvals", else NAME.approvals.json beside NAME.json). Restart
the gateway afterwards.`;

const flags = {
  config: { type: "string" },
  server: { type: "string" },
  tool: { type: "string" },
  all: { type: "boolean" },
  approvals: { type: "string" },
} as const;

/** `toolsift approve`: review and approve changed tool definitions. */
export async function approveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (!values.config) throw new UsageError("--config FILE is required: the gateway config.");
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (values.tool !== undefined && values.all) {
    throw new UsageError("Pass --tool T or --all, not both.");
  }
  const mcp = await loadMCP();
  const config = await mcp.loadGatewayConfig(values.config);
  if (values.server !== undefined && config.servers[values.server] === undefined) {
    const known = Object.keys(config.servers).join(", ");
    throw new UsageError(`No server "${values.server}" in ${values.config}; servers: ${known}.`);
  }
  if (config.pinTools !== true) {
    // approvals are kept either way, but without pinning they change nothing the gateway serves
    io.stderr(
      `Note: ${values.config} does not set "pinTools": true, so the gateway holds no tool back and these approvals take effect only once it does.\n`,
    );
  }
  const file = values.approvals ?? config.approvals ?? mcp.defaultApprovalsFile(values.config);
  const pins = await mcp.loadToolPins(file, values.config);
  // approving is about what the servers serve now: start them live, known tools ignored
  const servers = Object.fromEntries(
    Object.entries(config.servers)
      .filter(([name]) => values.server === undefined || name === values.server)
      .map(([name, server]) => {
        const { lazy: _lazy, tools: _tools, ...live } = server;
        return [name, live];
      }),
  );
  const sift = await mcp.createMCPToolSift({
    servers,
    ...(config.naming ? { naming: config.naming } : {}),
    log: (entry) => {
      if (entry.level === "error") io.stderr(`${entry.server ?? "gateway"}: ${entry.message}\n`);
    },
  });
  try {
    let approved = 0;
    let pending = 0;
    for (const tool of sift.catalog.list()) {
      const upstream = sift.upstreams.upstreamTool(tool.name);
      const route = sift.upstreams.route(tool.name);
      if (!upstream || !route) continue;
      const verdict = pins.check(route.server, upstream);
      const chosen = values.all || values.tool === upstream.name || values.tool === tool.name;
      if (chosen) {
        if (verdict !== "approved") io.stdout(`approved ${tool.name} (${verdict})\n`);
        pins.approve(route.server, upstream);
        approved += 1;
      } else if (verdict !== "approved") {
        pending += 1;
        io.stdout(`${verdict.padEnd(8)} ${tool.name}\n`);
      }
    }
    if (values.tool !== undefined && approved === 0) {
      io.stderr(
        `No live tool "${values.tool}"${values.server ? ` on server "${values.server}"` : ""}; run without --tool to list the tools.\n`,
      );
      return 1;
    }
    if (approved > 0) {
      await pins.save();
      io.stdout(`${approved} tool(s) approved in ${file}; restart the gateway.\n`);
      return 0;
    }
    io.stdout(
      pending > 0
        ? `${pending} tool(s) wait for approval; pass --tool NAME or --all.\n`
        : "Every tool matches its approval.\n",
    );
    return 0;
  } finally {
    await sift.close();
  }
}
