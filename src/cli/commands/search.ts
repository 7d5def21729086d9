import type { SearchHit, SearchResult } from "../../search/index.js";
import { integerFlag, parseCommand, requireCatalogs } from "../args.js";
import type { CliIO } from "../io.js";
import { indexTools, loadTools } from "../load.js";
import { UsageError } from "../usage-error.js";

export const searchUsage = `Usage: toolsift search QUERY --catalog PATH [--catalog PATH ...] [--limit N] [--json] [--explain] [--regex] [--strict]

Searches the catalog. QUERY may use: plain words, +required, -excluded, server:NAME,
select:a,b,c (exact names), /regex/ (or --regex). --limit is 1-25 (default 5).`;

const flags = {
  catalog: { type: "string", multiple: true },
  limit: { type: "string" },
  json: { type: "boolean" },
  explain: { type: "boolean" },
  regex: { type: "boolean" },
  strict: { type: "boolean" },
} as const;

/** `toolsift search`: ranked hits for one query. */
export async function searchCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length === 0)
    throw new UsageError(
      'QUERY is missing: toolsift search "create an issue" --catalog tools.json',
    );
  const query = positionals.join(" ");
  const limit = integerFlag(values.limit, "limit", { min: 1, max: 25 }, 5);
  const tools = await loadTools(requireCatalogs(values.catalog), io, {
    strict: values.strict === true,
  });
  const index = indexTools(tools);
  const result = index.search(query, {
    limit,
    explain: values.explain === true,
    ...(values.regex ? { mode: "regex" as const } : {}),
  });
  if (values.json) {
    io.stdout(`${JSON.stringify(toJson(result), null, 2)}\n`);
  } else {
    io.stdout(formatResult(result));
  }
  return 0;
}

function hitToJson(hit: SearchHit) {
  return {
    name: hit.name,
    score: Math.round(hit.score * 1e4) / 1e4,
    ...(hit.tool.server ? { server: hit.tool.server } : {}),
    description: hit.tool.description,
    ...(hit.confidence ? { confidence: hit.confidence } : {}),
    ...(hit.companions ? { companions: hit.companions } : {}),
    ...(hit.explanation ? { explanation: hit.explanation } : {}),
    ...(hit.scoreParts ? { scoreParts: hit.scoreParts } : {}),
  };
}

/** The search result as printed by --json: tools are reduced to name, server and description. */
export function toJson(result: SearchResult) {
  return { ...result, hits: result.hits.map(hitToJson) };
}

function firstLine(text: string, max = 110): string {
  const line = text.split("\n", 1)[0]?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** How a hit's score is made: "(terms 2.10 + name 0.31) × coverage 1.50 + phrase 0 × diversity 1". */
function describeParts(parts: NonNullable<SearchHit["scoreParts"]>): string {
  const f = (value: number) => value.toFixed(3);
  const base =
    parts.pinned !== undefined
      ? `pinned name ${f(parts.pinned)}`
      : `(terms ${f(parts.terms)} + name ${f(parts.nameBonus)}) × coverage ${f(parts.coverage)} + phrase ${f(parts.phraseBonus)}`;
  const after = parts.companionOf ? `; placed after ${parts.companionOf} as its companion` : "";
  return `${base} × diversity ${f(parts.diversity)}${after}`;
}

/** Human-readable listing of a search result. */
export function formatResult(result: SearchResult): string {
  const lines: string[] = [];
  if (result.kind === "keyword" && result.hits.length > 0 && result.confidence !== "strong")
    lines.push(`No strong match for "${result.query}"; closest:`);
  if (result.hits.length === 0) {
    lines.push(`No tools matched "${result.query}" among ${result.total} tools.`);
    if (result.suggestions?.length) lines.push(`Closest names: ${result.suggestions.join(", ")}`);
    if (result.servers?.length) {
      lines.push(
        `Servers: ${result.servers.map((entry) => `${entry.server} (${entry.tools})`).join(", ")}`,
      );
    }
  }
  result.hits.forEach((hit, position) => {
    const server = hit.tool.server ? `  [${hit.tool.server}]` : "";
    const score = result.kind === "keyword" ? `  ${hit.score.toFixed(3)}` : "";
    lines.push(`${position + 1}. ${hit.name}${score}${server}`);
    const description = firstLine(hit.tool.description);
    if (description) lines.push(`   ${description}`);
    if (hit.explanation?.length) {
      const parts = hit.explanation.map(
        (entry) => `${entry.term}@${entry.field} ${entry.score.toFixed(2)}`,
      );
      lines.push(`   why: ${parts.join(", ")}`);
    }
    if (hit.scoreParts) lines.push(`   score: ${describeParts(hit.scoreParts)}`);
    for (const companion of hit.companions ?? [])
      lines.push(`   ${companion.reason}: get it with ${companion.name}`);
  });
  if (result.missing?.length) lines.push(`Missing: ${result.missing.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
