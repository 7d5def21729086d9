/** Retrieval quality on ../shared/bench: toolsift vs a plain BM25 baseline, computed in the same run. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { loadCatalogPaths } from "../src/catalog/node.js";
import { readQueries } from "../src/cli/load.js";
// the plain-BM25 baseline is a bench internal, imported from its file (not part of any public entry)
import { BaselineBM25 } from "../src/search/evaluate/baseline-bm25.js";
import { evaluate, ToolSearchIndex } from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";

export interface QualityRow {
  dataset: string;
  queries: number;
  ours: { r1: number; r5: number; r10: number; mrr: number; ndcg: number };
  baseline: { r1: number; r5: number; r10: number; mrr: number; ndcg: number };
}

/** Evaluates every dataset in ../shared/bench and prints per-dataset and macro figures. */
export async function runQualityBench(): Promise<QualityRow[]> {
  const root = path.join(sharedDir(), "bench");
  const datasets = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const rows: QualityRow[] = [];
  for (const dataset of datasets) {
    const { tools } = await loadCatalogPaths([path.join(root, dataset, "catalog.json")], {
      onInvalid: "skip",
      nameRule: "lenient",
      // benchmark catalogs are written by their authors, one file for many servers
      trust: "host",
      duplicates: "error",
    });
    const queries = (await readQueries(path.join(root, dataset, "queries.jsonl"))).filter(
      (query): query is typeof query & { relevant: string[] } => (query.relevant?.length ?? 0) > 0,
    );
    const ours = new ToolSearchIndex();
    for (const tool of tools) ours.add(tool);
    const baseline = new BaselineBM25(tools);
    const summarise = (metrics: ReturnType<typeof evaluate>) => ({
      r1: metrics.recallAt[1],
      r5: metrics.recallAt[5],
      r10: metrics.recallAt[10],
      mrr: metrics.mrr,
      ndcg: metrics.ndcgAt10,
    });
    rows.push({
      dataset,
      queries: queries.length,
      ours: summarise(evaluate(ours, queries)),
      baseline: summarise(evaluate(baseline, queries)),
    });
  }
  const mean = (pick: (row: QualityRow) => number) =>
    rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  const fixed = (value: number) => value.toFixed(3);
  console.log("\n## Retrieval quality (../shared/bench, DEV split)\n");
  console.log("| dataset | queries | R@1 | R@5 | R@10 | MRR | nDCG@10 | baseline R@5 | Δ R@5 |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) {
    console.log(
      `| ${row.dataset} | ${row.queries} | ${fixed(row.ours.r1)} | ${fixed(row.ours.r5)} | ${fixed(row.ours.r10)} | ${fixed(row.ours.mrr)} | ${fixed(row.ours.ndcg)} | ${fixed(row.baseline.r5)} | ${(row.ours.r5 - row.baseline.r5 >= 0 ? "+" : "") + fixed(row.ours.r5 - row.baseline.r5)} |`,
    );
  }
  const macroOurs = mean((row) => row.ours.r5);
  const macroBase = mean((row) => row.baseline.r5);
  console.log(
    `| **macro** | | ${fixed(mean((row) => row.ours.r1))} | ${fixed(macroOurs)} | ${fixed(mean((row) => row.ours.r10))} | ${fixed(mean((row) => row.ours.mrr))} | ${fixed(mean((row) => row.ours.ndcg))} | ${fixed(macroBase)} | +${fixed(macroOurs - macroBase)} |`,
  );
  return rows;
}
