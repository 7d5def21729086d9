import type { ToolDefinition } from "../../catalog/index.js";
import { DEFAULT_RANKING, type SearchHit, type SearchResult } from "../../search/index.js";
import { firstSentence } from "../../text/index.js";
import { catalogFlags, integerFlag, parseCommand } from "../args.js";
import { loadIndexedTools } from "../catalog-cache.js";
import {
  embedderFlags,
  embedderUsage,
  openFlagEmbedder,
  warningPrinter,
} from "../embedder-flags.js";
import { hybridRanking } from "../hybrid-ranking.js";
import { cacheFlags } from "../index-cache.js";
import type { CliIO } from "../io.js";
import {
  clip,
  createProgress,
  jsonText,
  type Style,
  safeText,
  styleFor,
  table,
} from "../terminal.js";
import { UsageError } from "../usage-error.js";

export const searchUsage = `Usage: toolsift search QUERY --catalog PATH [--catalog PATH ...] [--limit N] [--json] [--explain] [--regex] [--cache DIR | --no-cache]
       [--strict] [--duplicates qualify|error] [--embedder FILE.json | --embedder-url URL --embedder-model M
       [--embedder-key-env VAR] | --word-vectors FILE]
Searches the catalog. QUERY may use: plain words, +required, -excluded, server:NAME,
select:a,b,c (exact names), /regex/ (or --regex). --limit is 1-25 (default 5); a hit scoring
under ${DEFAULT_RANKING.tailCut} of the top score is left out, so fewer may print.
Exit code 0 when something matched, 1 when nothing did (the closest names are printed), 2 for bad
usage or input.
${embedderUsage}`;

const flags = {
  ...catalogFlags,
  ...cacheFlags,
  ...embedderFlags,
  limit: { type: "string" },
  json: { type: "boolean" },
  explain: { type: "boolean" },
  regex: { type: "boolean" },
} as const;

/** select: names that several servers serve, qualified as server/name (a Map: a tool may be
 * named "__proto__"). */
type Ambiguous = Map<string, string[]>;

function ambiguousNames(result: SearchResult, tools: readonly ToolDefinition[]): Ambiguous {
  const ambiguous: Ambiguous = new Map();
  for (const name of result.missing ?? []) {
    const qualified = tools.filter((tool) => tool.name.endsWith(`/${name}`)).map((t) => t.name);
    if (qualified.length > 0) ambiguous.set(name, qualified);
  }
  return ambiguous;
}

/** `toolsift search`: ranked hits for one query; exit 1 when nothing matched. */
export async function searchCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length === 0)
    throw new UsageError(
      'QUERY is missing: toolsift search "create an issue" --catalog tools.json',
    );
  const query = positionals.join(" ");
  const limit = integerFlag(values.limit, "limit", { min: 1, max: 25 }, 5);
  const embedder = await openFlagEmbedder(values, io);
  const progress = createProgress(io);
  let result: SearchResult;
  let tools: ToolDefinition[];
  try {
    const loaded = await loadIndexedTools(values, io, progress);
    tools = loaded.tools;
    result = await hybridRanking(loaded.index, tools, embedder, warningPrinter(io)).search(query, {
      limit,
      explain: values.explain === true,
      ...(values.regex ? { mode: "regex" as const } : {}),
    });
  } finally {
    embedder?.close();
  }
  const ambiguous = ambiguousNames(result, tools);
  if (values.json) {
    io.stdout(jsonText(toJson(result, ambiguous)));
  } else {
    const style = styleFor(io);
    // a weak first hit is introduced as such, so nobody reads the list as a confident answer
    const weak =
      result.kind === "keyword" && result.hits.length > 0 && result.confidence !== "strong"
        ? [
            style.yellow(
              `No strong match for "${safeText(result.query, { oneLine: true })}"; closest:`,
            ),
          ]
        : [];
    const body =
      io.stdoutTTY === true
        ? hitTable(result, style, io.columns ?? 100)
        : result.hits.flatMap((hit, position) => hitLines(hit, position, result.kind));
    io.stdout(`${[...weak, ...body, ...footer(result, ambiguous, style)].join("\n")}\n`);
  }
  return result.hits.length > 0 ? 0 : 1;
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
    ...(hit.semantic ? { semantic: hit.semantic } : {}),
  };
}

/** The search result as printed by --json: tools are reduced to name, server and description;
 * `ambiguous` (select: names several servers serve) and `unknownServers` (server: names that
 * mean no server, with the closest) appear when the catalog explains a miss. */
export function toJson(result: SearchResult, ambiguous?: Ambiguous) {
  const { unknownServers, ...rest } = result;
  return {
    ...rest,
    hits: result.hits.map(hitToJson),
    ...(ambiguous && ambiguous.size > 0 ? { ambiguous: Object.fromEntries(ambiguous) } : {}),
    ...(unknownServers && unknownServers.length > 0
      ? {
          unknownServers: Object.fromEntries(
            unknownServers.map((entry) => [entry.server, entry.closest]),
          ),
        }
      : {}),
  };
}

// the summary is clipped to the line's width afterwards; this only bounds the work
const SUMMARY_CHARS = 300;

/** The tool's summary (the one search lines and the inspector show), safe for a terminal. */
function summaryLine(text: string): string {
  return safeText(firstSentence(text, SUMMARY_CHARS), { oneLine: true });
}

/** Piped output: a stable list, one hit per block, no colour and no width cut beyond 110. */
function hitLines(hit: SearchHit, position: number, kind: SearchResult["kind"]): string[] {
  const server = hit.tool.server ? `  [${safeText(hit.tool.server, { oneLine: true })}]` : "";
  const score = kind === "keyword" ? `  ${hit.score.toFixed(3)}` : "";
  const lines = [`${position + 1}. ${safeText(hit.name, { oneLine: true })}${score}${server}`];
  const description = clip(summaryLine(hit.tool.description), 110);
  if (description) lines.push(`   ${description}`);
  lines.push(...detailLines(hit));
  return lines;
}

/** The lines under a hit: what scored (--explain), how the score is made, its companions. */
function detailLines(hit: SearchHit): string[] {
  const lines: string[] = [];
  if (hit.explanation?.length) lines.push(`   why: ${why(hit)}`);
  if (hit.scoreParts) lines.push(`   score: ${describeParts(hit.scoreParts)}`);
  if (hit.explanation && hit.semantic)
    lines.push(
      `   similarity: z ${hit.semantic.zScore.toFixed(2)}, adds ${hit.semantic.score.toFixed(3)}`,
    );
  for (const companion of hit.companions ?? []) {
    lines.push(
      `   ${safeText(companion.reason, { oneLine: true })}: get it with ${safeText(companion.name, { oneLine: true })}`,
    );
  }
  return lines;
}

/** How a hit's score is made: "((terms 2.1 + name 0.3) × coverage 1.5 + phrase 0) × diversity 1",
 * with the multipliers of the steps that scaled the hit after the coverage ("× name fit 0.82" for a
 * short query, "× unasked 0.85" for a destructive tool the query did not ask for) and "+ learned"
 * when learned words matched, so the printed parts give the score. */
function describeParts(parts: NonNullable<SearchHit["scoreParts"]>): string {
  const f = (value: number) => value.toFixed(3);
  // the name fit and the destructive step scale the lexical part, before the phrase bonus
  const fit = parts.nameFit === undefined ? "" : ` × name fit ${f(parts.nameFit)}`;
  const unasked = parts.unasked === undefined ? "" : ` × unasked ${f(parts.unasked)}`;
  const learned = parts.learned === undefined ? "" : ` + learned ${f(parts.learned)}`;
  const base =
    parts.pinned !== undefined
      ? `pinned name ${f(parts.pinned)}`
      : `((terms ${f(parts.terms)} + name ${f(parts.nameBonus)}) × coverage ${f(parts.coverage)}${fit}${unasked} + phrase ${f(parts.phraseBonus)}${learned})`;
  const after = parts.companionOf
    ? `; placed after ${safeText(parts.companionOf, { oneLine: true })} as its companion`
    : "";
  return `${base} × diversity ${f(parts.diversity)}${after}`;
}

function why(hit: SearchHit): string {
  return (hit.explanation ?? [])
    .map(
      (entry) =>
        `${safeText(entry.term, { oneLine: true })}@${entry.field} ${entry.score.toFixed(2)}`,
    )
    .join(", ");
}

/** Terminal output: an aligned table, descriptions cut to the terminal's width. */
function hitTable(result: SearchResult, style: Style, columns: number): string[] {
  if (result.hits.length === 0) return [];
  const keyword = result.kind === "keyword";
  const rows = result.hits.map((hit, position) => [
    String(position + 1),
    safeText(hit.name, { oneLine: true }),
    safeText(hit.tool.server ?? "", { oneLine: true }),
    keyword ? hit.score.toFixed(3) : "",
  ]);
  const lines = table(
    [
      { header: "#", align: "right" },
      { header: "tool" },
      { header: "server" },
      { header: keyword ? "score" : "", align: "right" },
    ],
    rows,
  );
  const width = Math.max(...lines.map((line) => [...line].length));
  const room = Math.max(20, columns - width - 2);
  const [header = "", ...body] = lines;
  const out = [style.bold(header)];
  result.hits.forEach((hit, position) => {
    out.push(
      `${body[position] ?? ""}${" ".repeat(width - [...(body[position] ?? "")].length)}  ${style.dim(clip(summaryLine(hit.tool.description), room))}`,
    );
    for (const line of detailLines(hit)) out.push(style.dim(line));
  });
  return out;
}

/** What follows the hits: why nothing matched and what to try instead. */
function footer(result: SearchResult, ambiguous: Ambiguous, style: Style): string[] {
  const lines: string[] = [];
  const list = (names: readonly string[]) =>
    names.map((name) => safeText(name, { oneLine: true })).join(", ");
  if (result.hits.length === 0) {
    lines.push(
      style.yellow(
        `No tools matched "${safeText(result.query, { oneLine: true })}" among ${result.total} tools.`,
      ),
    );
  }
  const unknownServers = result.unknownServers ?? [];
  for (const { server, closest: near } of unknownServers) {
    const hint =
      near.length > 0 ? ` Did you mean ${near.map((name) => `server:${name}`).join(", ")}?` : "";
    lines.push(`No server is named "${safeText(server, { oneLine: true })}".${hint}`);
  }
  if (result.hits.length === 0) {
    if (result.suggestions?.length) lines.push(`Closest names: ${list(result.suggestions)}`);
    // a server: name with no near server lists them all
    if (result.servers?.length && unknownServers.every((entry) => entry.closest.length === 0)) {
      lines.push(
        `Servers: ${result.servers.map((entry) => `${safeText(entry.server, { oneLine: true })} (${entry.tools})`).join(", ")}`,
      );
    }
  }
  for (const [name, qualified] of ambiguous) {
    lines.push(
      `"${safeText(name, { oneLine: true })}" is served by ${qualified.length} servers, so each is named server/name: ${list(qualified)}. Select one of them.`,
    );
  }
  const missing = (result.missing ?? []).filter((name) => !ambiguous.has(name));
  if (missing.length > 0) lines.push(`Missing: ${list(missing)}`);
  return lines;
}
