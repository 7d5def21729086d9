import { evaluate } from "../../search/index.js";
import { catalogFlags, integerFlag, parseCommand } from "../args.js";
import {
  embedderFlags,
  embedderUsage,
  openFlagEmbedder,
  warningPrinter,
} from "../embedder-flags.js";
import { hybridRanking } from "../hybrid-ranking.js";
import { cacheFlags } from "../index-cache.js";
import type { CliIO } from "../io.js";
import { indexTools, loadTools, readQueries } from "../load.js";
import { createProgress, jsonText, safeText, styleFor, table } from "../terminal.js";
import { UsageError } from "../usage-error.js";
import { applyUsage, readUsage } from "../usage-file.js";

export const evalUsage = `Usage: toolsift eval --catalog PATH --queries FILE.jsonl [--json] [--misses] [--miss-k K] [--strict]
       [--usage FILE.jsonl] [--duplicates qualify|error] [--embedder FILE.json | --embedder-url URL ...]
       [--cache DIR | --no-cache]

Prints R@1/3/5/10, MRR and nDCG@10 over the queries that carry "relevant".
--misses also lists every query whose relevant tools are not all in its top K (--miss-k: 1, 3, 5
or 10; default 5), with what it expected and what it ranked first.
--usage reads JSON lines {"query", "tool", "session"} as learned words (see toolsift rank --help).
${embedderUsage}`;

const flags = {
  ...catalogFlags,
  ...cacheFlags,
  ...embedderFlags,
  queries: { type: "string" },
  usage: { type: "string" },
  json: { type: "boolean" },
  misses: { type: "boolean" },
  "miss-k": { type: "string" },
} as const;

/** `toolsift eval`: retrieval quality of the engine on a labelled query set. */
export async function evalCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (!values.queries) throw new UsageError("--queries FILE.jsonl is required.");
  const missK = integerFlag(values["miss-k"], "miss-k", { min: 1, max: 10 }, 5);
  if (![1, 3, 5, 10].includes(missK))
    throw new UsageError(`--miss-k must be 1, 3, 5 or 10; got ${missK}.`);
  const progress = createProgress(io);
  const tools = await loadTools(values, io, progress);
  const labelled = (await readQueries(values.queries)).filter(
    (query): query is typeof query & { relevant: string[] } => (query.relevant?.length ?? 0) > 0,
  );
  if (labelled.length === 0) {
    throw new UsageError(
      `No line of ${values.queries} has a non-empty "relevant" list to evaluate against.`,
    );
  }
  const usage = values.usage === undefined ? undefined : await readUsage(values.usage);
  const index = indexTools(tools, progress);
  if (usage !== undefined) applyUsage(index, usage, io);
  progress.step(`evaluating ${labelled.length} queries`);
  const embedder = await openFlagEmbedder(values, io);
  let ranked: Map<string, string[]>;
  try {
    ranked = await hybridRanking(index, tools, embedder, warningPrinter(io)).rankAll(
      labelled.map((query) => query.query),
      10,
    );
  } finally {
    embedder?.close();
  }
  const ranker = { rank: (query: string, k: number) => ranked.get(query) ?? index.rank(query, k) };
  const { perQuery = [], ...metrics } = evaluate(ranker, labelled, { perQuery: true });
  const byId = new Map(labelled.map((query) => [query.id, query]));
  const misses = perQuery
    .filter((result) => result.recallAt[missK as 1 | 3 | 5 | 10] < 1)
    .map((result) => {
      const query = byId.get(result.id);
      return {
        id: result.id,
        query: query?.query ?? "",
        relevant: query?.relevant ?? [],
        ranked: result.ranked.slice(0, missK),
      };
    });
  if (values.json) {
    io.stdout(jsonText(values.misses ? { ...metrics, missK, misses } : metrics));
    return 0;
  }
  const style = styleFor(io);
  const rows = [
    ...([1, 3, 5, 10] as const).map((k) => [`R@${k}`, metrics.recallAt[k].toFixed(4)]),
    ["MRR", metrics.mrr.toFixed(4)],
    ["nDCG@10", metrics.ndcgAt10.toFixed(4)],
  ];
  const [header = "", ...body] = table(
    [{ header: "metric" }, { header: `${metrics.count} queries`, align: "right" }],
    rows,
  );
  io.stdout(`${[style.bold(header), ...body].join("\n")}\n`);
  if (values.misses) {
    io.stdout(
      `\n${style.bold(`${misses.length} of ${metrics.count} queries missed a relevant tool in the top ${missK}:`)}\n`,
    );
    for (const miss of misses) {
      const one = (text: string) => safeText(text, { oneLine: true });
      io.stdout(
        `${one(miss.id)}  ${one(miss.query)}\n    expected: ${miss.relevant.map(one).join(", ")}\n    ranked:   ${miss.ranked.map(one).join(", ") || "(nothing)"}\n`,
      );
    }
  }
  return 0;
}
