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
import { readQueries } from "../load.js";
import { createProgress, jsonLine } from "../terminal.js";
import { UsageError } from "../usage-error.js";
import { applyUsage, readUsage } from "../usage-file.js";

export const rankUsage = `Usage: toolsift rank --catalog PATH --queries FILE.jsonl [--k 10] [--usage FILE.jsonl] [--strict]
       [--duplicates qualify|error] [--cache DIR | --no-cache] [--embedder FILE.json | --embedder-url URL ...]

Prints one JSON line per input line, in input order: {"id": "...", "ranked": ["name", ...]}.
Input lines are {"id", "query", ...}. Uses the search engine's defaults without the tail cut.
--usage reads JSON lines {"query", "tool", "session"} (a session searched, then called the tool)
as learned words; a word counts once 3 distinct sessions used it for a tool.
${embedderUsage}`;

const flags = {
  ...catalogFlags,
  ...cacheFlags,
  ...embedderFlags,
  queries: { type: "string" },
  usage: { type: "string" },
  k: { type: "string" },
} as const;

/** `toolsift rank`: the top k names for every query of a JSONL file, in one process. */
export async function rankCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (!values.queries) throw new UsageError("--queries FILE.jsonl is required.");
  const k = integerFlag(values.k, "k", { min: 1, max: 1000 }, 10);
  const embedder = await openFlagEmbedder(values, io);
  try {
    const progress = createProgress(io);
    const { index, tools } = await loadIndexedTools(values, io, progress);
    const queries = await readQueries(values.queries);
    const usage = values.usage === undefined ? undefined : await readUsage(values.usage);
    if (usage !== undefined) applyUsage(index, usage, io);
    const ranking = hybridRanking(index, tools, embedder, warningPrinter(io));
    // embedded and ranked in batches; an engine's refusal is reported on its own line below
    const ranked = await ranking.rankAll(
      queries.map((query) => query.query),
      k,
      (done) => progress.step(`ranking query ${done} of ${queries.length}`),
    );
    writeRankLines(queries, (query) => ranked.get(query) ?? index.rank(query, k), io);
  } finally {
    embedder?.close();
  }
  return 0;
}

/** One JSON line per query, written in chunks. */
function writeRankLines(
  queries: readonly { id: string; query: string }[],
  rank: (query: string) => string[],
  io: CliIO,
): void {
  // one buffered write per chunk keeps 20,000 lines fast without holding every line twice
  let buffer = "";
  for (const query of queries) {
    let line: string;
    try {
      // an empty query would browse the catalog; in a ranking file it is a mistake, not a query
      if (query.query.trim() === "") throw new Error("empty query: nothing to rank by");
      line = jsonLine({ id: query.id, ranked: rank(query.query) });
    } catch (error) {
      // a query the engine refuses (no letters or digits) still gets its line, with the reason
      line = jsonLine({ id: query.id, ranked: [], error: (error as Error).message });
    }
    buffer += `${line}\n`;
    if (buffer.length > 1 << 16) {
      io.stdout(buffer);
      buffer = "";
    }
  }
  io.stdout(buffer);
}
