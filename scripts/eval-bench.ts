/**
 * Retrieval benchmark on the DEV datasets in ../shared/bench: ours vs the plain BM25 baseline.
 * Usage: npx tsx scripts/eval-bench.ts [--half a|b] [--ranking '{"k1":1.5}'] [--only name,name] [--json]
 * `--half` keeps the queries whose hashed id falls in one half (tune on a, check on b).
 */

import { BaselineBM25 } from "../src/search/evaluate/baseline-bm25.js";
import {
  type Evaluation,
  evaluate,
  type RankingConfig,
  ToolSearchIndex,
} from "../src/search/index.js";
import { loadBenchDatasets } from "./eval-sets.js";
import { half } from "./query-half.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const only = argument("only")?.split(",");
const wantedHalf = argument("half");
const rankingText = argument("ranking");
const ranking = rankingText ? (JSON.parse(rankingText) as Partial<RankingConfig>) : undefined;

const rows: { dataset: string; ours: Evaluation; base: Evaluation }[] = [];
for (const { name: dataset, tools, queries: all } of loadBenchDatasets(only)) {
  let queries = all;
  if (wantedHalf === "a" || wantedHalf === "b")
    queries = queries.filter((q) => half(q.id) === wantedHalf);
  const index = new ToolSearchIndex(ranking ? { ranking } : undefined);
  for (const tool of tools) index.add(tool);
  const ours = evaluate({ rank: (query, k) => index.rank(query, k) }, queries);
  const base = evaluate(new BaselineBM25(tools), queries);
  rows.push({ dataset, ours, base });
}

const fmt = (value: number) => value.toFixed(3);
const mean = (pick: (row: (typeof rows)[number]) => number) =>
  rows.reduce((sum, row) => sum + pick(row), 0) / Math.max(1, rows.length);
if (process.argv.includes("--json")) {
  console.log(
    JSON.stringify({
      macroR5: mean((r) => r.ours.recallAt[5]),
      baseR5: mean((r) => r.base.recallAt[5]),
      rows: rows.map((r) => ({
        dataset: r.dataset,
        r5: r.ours.recallAt[5],
        base: r.base.recallAt[5],
      })),
    }),
  );
} else {
  console.log(
    `${"dataset".padEnd(16)} ${"n".padStart(5)}  ours R@1  R@5   R@10  MRR   | base R@1  R@5   R@10  MRR   | ΔR@5`,
  );
  for (const { dataset, ours, base } of rows) {
    console.log(
      `${dataset.padEnd(16)} ${String(ours.count).padStart(5)}  ${fmt(ours.recallAt[1])} ${fmt(ours.recallAt[5])} ${fmt(ours.recallAt[10])} ${fmt(ours.mrr)} | ${fmt(base.recallAt[1])} ${fmt(base.recallAt[5])} ${fmt(base.recallAt[10])} ${fmt(base.mrr)} | ${(ours.recallAt[5] - base.recallAt[5] >= 0 ? "+" : "") + fmt(ours.recallAt[5] - base.recallAt[5])}`,
    );
  }
  console.log(
    `${"macro".padEnd(16)} ${"".padStart(5)}  ${fmt(mean((r) => r.ours.recallAt[1]))} ${fmt(mean((r) => r.ours.recallAt[5]))} ${fmt(mean((r) => r.ours.recallAt[10]))} ${fmt(mean((r) => r.ours.mrr))} | ${fmt(mean((r) => r.base.recallAt[1]))} ${fmt(mean((r) => r.base.recallAt[5]))} ${fmt(mean((r) => r.base.recallAt[10]))} ${fmt(mean((r) => r.base.mrr))} | +${fmt(mean((r) => r.ours.recallAt[5] - r.base.recallAt[5]))}`,
  );
}
