import { createToolSift } from "../../create-toolsift.js";
import type { ProviderId } from "../../providers/index.js";
import { contextWindowFlag, parseCommand, requireCatalogs } from "../args.js";
import type { CliIO } from "../io.js";
import { loadTools } from "../load.js";
import { UsageError } from "../usage-error.js";

export const reportUsage = `Usage: toolsift report --catalog PATH [--catalog PATH ...] [--json] [--listing] [--context-window TOKENS]

Token cost (o200k) of the catalog's tool definitions in each provider format (anthropic, openai,
gemini, mcp): the full list, toolsift's first turn (client-side search, default settings), and the
saving. --listing adds the directory of deferred tools to the search tool. --json prints
{"tools": N, "full": {...}, "firstTurn": {...}, "savings": {...}}.`;

const flags = {
  catalog: { type: "string", multiple: true },
  json: { type: "boolean" },
  listing: { type: "boolean" },
  "context-window": { type: "string" },
  strict: { type: "boolean" },
} as const;

/** Report formats: the three API families (OpenAI as Chat Completions) and MCP's tools/list. */
const formats: readonly { name: string; provider?: ProviderId }[] = [
  { name: "anthropic", provider: "anthropic" },
  { name: "openai", provider: "openai-chat" },
  { name: "gemini", provider: "gemini" },
  { name: "mcp" },
];

/** `toolsift report`: what the full tool list costs per provider, and what toolsift sends instead. */
export async function reportCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const contextWindow = contextWindowFlag(values["context-window"]);
  const tools = await loadTools(requireCatalogs(values.catalog), io, {
    strict: values.strict === true,
  });
  const sift = createToolSift({ tools });
  const count = (value: unknown) => sift.tokenCounter.count(JSON.stringify(value));

  const full: Record<string, number> = {};
  const firstTurn: Record<string, number> = {};
  const savings: Record<string, number> = {};
  const turn = { session: "report", contextWindow, ...(values.listing ? { listing: true } : {}) };
  for (const format of formats) {
    if (format.provider) {
      const all = sift.prepare({
        ...turn,
        provider: format.provider,
        search: "client",
        mode: "off",
        // the full list as it is, past the provider's tool limit: the figure to compare with
        maxTools: Number.MAX_SAFE_INTEGER,
      });
      const first = sift.prepare({ ...turn, provider: format.provider, search: "client" });
      full[format.name] = count(all.tools);
      // the system note is part of what the first turn adds to the context
      firstTurn[format.name] =
        count(first.tools) + (first.system ? sift.tokenCounter.count(first.system) : 0);
    } else {
      // MCP: the tools/list a gateway would serve, without and with toolsift in front
      const asListed = (
        list: readonly { name: string; description: string; inputSchema: unknown }[],
      ) => list.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
      const plan = sift.prepare(turn);
      full[format.name] = count(asListed(sift.catalog.list()));
      firstTurn[format.name] =
        count(asListed([...plan.metaTools, ...plan.loaded])) +
        (plan.system ? sift.tokenCounter.count(plan.system) : 0);
    }
    const before = full[format.name] ?? 0;
    savings[format.name] = before === 0 ? 0 : 1 - (firstTurn[format.name] ?? 0) / before;
  }

  // the server directory is part of every first turn above; its own cost, shown separately
  const directory = sift.prepare(turn).stats.directoryTokens;
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ tools: sift.catalog.size, full, firstTurn, savings, directoryTokens: directory }, null, 2)}\n`,
    );
    return 0;
  }
  io.stdout(
    `${sift.catalog.size} tools; first turn with default settings (auto, ${contextWindow.toLocaleString("en")}-token window${values.listing ? ", listing on" : ""}); o200k tokens\n\n`,
  );
  io.stdout(
    `${"format".padEnd(11)}${"full list".padStart(12)}${"first turn".padStart(12)}${"saving".padStart(9)}\n`,
  );
  for (const format of formats) {
    const saving = `${((savings[format.name] ?? 0) * 100).toFixed(2)}%`;
    io.stdout(
      `${format.name.padEnd(11)}${(full[format.name] ?? 0).toLocaleString("en").padStart(12)}${(firstTurn[format.name] ?? 0).toLocaleString("en").padStart(12)}${saving.padStart(9)}\n`,
    );
  }
  io.stdout(
    `\nserver directory (one line per server, included in the first turn): ${directory.toLocaleString("en")} tokens\n`,
  );
  return 0;
}
