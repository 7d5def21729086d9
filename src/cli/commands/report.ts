import type { ToolDefinition } from "../../catalog/index.js";
import { countDefinitionTokens } from "../../count-definition-tokens.js";
import { createToolSift, type ToolSift } from "../../create-toolsift.js";
import type { TurnSettings } from "../../disclosure/index.js";
import type { ProviderId } from "../../providers/index.js";
import { catalogFlags, contextWindowFlag, parseCommand } from "../args.js";
import type { CliIO } from "../io.js";
import { catalogOf, loadTools } from "../load.js";
import { createProgress, jsonText, type Style, safeText, styleFor, table } from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const reportUsage = `Usage: toolsift report --catalog PATH [--catalog PATH ...] [--json] [--listing] [--by-server]
       [--context-window TOKENS] [--strict] [--duplicates qualify|error]

Token cost (o200k) of the catalog's tool definitions in each provider format (anthropic, openai,
gemini, mcp): the full list, toolsift's first turn (client-side search, default settings), and the
saving. --listing adds the directory of deferred tools to the search tool. --json prints
{"tools": N, "full": {...}, "firstTurn": {...}, "savings": {...}}. --by-server adds each server's
tool count and the tokens of its tools in the MCP tools/list form (JSON: "byServer"). On a
terminal, progress goes to stderr.`;

const flags = {
  ...catalogFlags,
  json: { type: "boolean" },
  listing: { type: "boolean" },
  "by-server": { type: "boolean" },
  "context-window": { type: "string" },
} as const;

/** Report formats: the three API families (OpenAI as Chat Completions) and MCP's tools/list. */
const formats: readonly { name: string; provider?: ProviderId }[] = [
  { name: "anthropic", provider: "anthropic" },
  { name: "openai", provider: "openai-chat" },
  { name: "gemini", provider: "gemini" },
  { name: "mcp" },
];

/** Tokens per format: the full list, the first turn, and the saving (a fraction of the full list). */
interface FormatFigures {
  full: Record<string, number>;
  firstTurn: Record<string, number>;
  savings: Record<string, number>;
}

/** Counts every format's full list and first turn for `turn`'s settings. */
function countFormats(
  sift: ToolSift,
  turn: TurnSettings & { session: string },
  progress: ReturnType<typeof createProgress>,
): FormatFigures {
  const count = (value: unknown) => sift.tokenCounter.count(JSON.stringify(value));
  const figures: FormatFigures = { full: {}, firstTurn: {}, savings: {} };
  const { full, firstTurn, savings } = figures;
  for (const format of formats) {
    progress.step(`counting tokens: ${format.name} (${sift.catalog.size} tools)`);
    if (format.provider) {
      // the same figures as the inspector and the demo show, from the one function
      const tokens = countDefinitionTokens(sift, {
        ...turn,
        provider: format.provider,
        search: "client",
      });
      full[format.name] = tokens.all;
      firstTurn[format.name] = tokens.turn;
    } else {
      const plan = sift.prepare(turn);
      full[format.name] = count(sift.catalog.list().map(asListed));
      firstTurn[format.name] =
        count([...plan.metaTools, ...plan.loaded].map(asListed)) +
        (plan.system ? sift.tokenCounter.count(plan.system) : 0);
    }
    const before = full[format.name] ?? 0;
    savings[format.name] = before === 0 ? 0 : 1 - (firstTurn[format.name] ?? 0) / before;
  }
  return figures;
}

/** The format table: full list, first turn and saving per format. */
function formatTable({ full, firstTurn, savings }: FormatFigures, style: Style): string {
  const rows = formats.map((format) => [
    format.name,
    (full[format.name] ?? 0).toLocaleString("en"),
    (firstTurn[format.name] ?? 0).toLocaleString("en"),
    `${((savings[format.name] ?? 0) * 100).toFixed(2)}%`,
  ]);
  const [header = "", ...body] = table(
    [
      { header: "format" },
      { header: "full list", align: "right" },
      { header: "first turn", align: "right" },
      { header: "saving", align: "right" },
    ],
    rows,
  );
  return [style.bold(header), ...body].join("\n");
}

/** The `--by-server` table: tools, MCP-form tokens and share of the tokens per server. */
function serverTable(byServer: ReturnType<typeof serverRows>, style: Style): string {
  const total = byServer.reduce((sum, row) => sum + row.tokens, 0) || 1;
  const [header = "", ...body] = table(
    [
      { header: "server" },
      { header: "tools", align: "right" },
      { header: "tokens (mcp)", align: "right" },
      { header: "share", align: "right" },
    ],
    byServer.map((row) => [
      safeText(row.server, { oneLine: true }),
      String(row.tools),
      row.tokens.toLocaleString("en"),
      `${((row.tokens / total) * 100).toFixed(1)}%`,
    ]),
  );
  return [style.bold(header), ...body].join("\n");
}

/** `toolsift report`: what the full tool list costs per provider, and what toolsift sends instead. */
export async function reportCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const contextWindow = contextWindowFlag(values["context-window"]);
  const progress = createProgress(io, 0);
  progress.step("loading catalogs");
  const tools = await loadTools(values, io);
  const sift = createToolSift({ catalog: catalogOf(tools) });
  const count = (value: unknown) => sift.tokenCounter.count(JSON.stringify(value));
  const turn = { session: "report", contextWindow, ...(values.listing ? { listing: true } : {}) };
  const figures = countFormats(sift, turn, progress);
  const byServer = values["by-server"] ? serverRows(sift.catalog.list(), count) : undefined;
  // the server directory is part of every first turn above; its own cost, shown separately
  const directory = sift.prepare(turn).stats.directoryTokens;
  if (values.json) {
    io.stdout(
      jsonText({
        tools: sift.catalog.size,
        ...figures,
        directoryTokens: directory,
        ...(byServer ? { byServer } : {}),
      }),
    );
    return 0;
  }
  const style = styleFor(io);
  io.stdout(
    `${sift.catalog.size} tools; first turn with default settings (auto, ${contextWindow.toLocaleString("en")}-token window${values.listing ? ", listing on" : ""}); o200k tokens\n\n`,
  );
  io.stdout(`${formatTable(figures, style)}\n`);
  if (byServer) io.stdout(`\n${serverTable(byServer, style)}\n`);
  io.stdout(
    `\nserver directory (one line per server, included in the first turn): ${directory.toLocaleString("en")} tokens\n`,
  );
  return 0;
}

/** MCP's tools/list form of a tool: what a gateway would serve. */
function asListed({ name, description, inputSchema }: ToolDefinition) {
  return { name, description, inputSchema };
}

/** Tools and MCP-form tokens per server, most tokens first; tools without a server are "(none)". */
function serverRows(tools: readonly ToolDefinition[], count: (value: unknown) => number) {
  const rows = new Map<string, { server: string; tools: number; tokens: number }>();
  for (const tool of tools) {
    const server = tool.server ?? "(none)";
    const row = rows.get(server) ?? { server, tools: 0, tokens: 0 };
    row.tools++;
    row.tokens += count(asListed(tool));
    rows.set(server, row);
  }
  return [...rows.values()].sort((a, b) => b.tokens - a.tokens || a.server.localeCompare(b.server));
}
