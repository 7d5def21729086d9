import { evaluate } from "../../search/index.js";
import { parseCommand, requireCatalogs } from "../args.js";
import type { CliIO } from "../io.js";
import { indexTools, loadTools, readQueries } from "../load.js";
import { UsageError } from "../usage-error.js";

export const evalUsage = `Usage: toolsift eval --catalog PATH --queries FILE.jsonl [--json] [--strict]

Prints R@1/3/5/10, MRR and nDCG@10 over the queries that carry "relevant".`;

const flags = {
  catalog: { type: "string", multiple: true },
  queries: { type: "string" },
  json: { type: "boolean" },
  strict: { type: "boolean" },
} as const;

/** `toolsift eval`: retrieval quality of the engine on a labelled query set. */
export async function evalCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(argv, flags);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (!values.queries) throw new UsageError("--queries FILE.jsonl is required.");
  const tools = await loadTools(requireCatalogs(values.catalog), io, {
    strict: values.strict === true,
  });
  const labelled = (await readQueries(values.queries)).filter(
    (query): query is typeof query & { relevant: string[] } => (query.relevant?.length ?? 0) > 0,
  );
  if (labelled.length === 0) {
    throw new UsageError(
      `No line of ${values.queries} has a non-empty "relevant" list to evaluate against.`,
    );
  }
  const index = indexTools(tools);
  const metrics = evaluate(index, labelled);
  if (values.json) {
    io.stdout(`${JSON.stringify(metrics, null, 2)}\n`);
    return 0;
  }
  const row = (label: string, value: number) => `${label.padEnd(8)}${value.toFixed(4)}\n`;
  io.stdout(`queries ${metrics.count}\n`);
  for (const k of [1, 3, 5, 10] as const) io.stdout(row(`R@${k}`, metrics.recallAt[k]));
  io.stdout(row("MRR", metrics.mrr));
  io.stdout(row("nDCG@10", metrics.ndcgAt10));
  return 0;
}
