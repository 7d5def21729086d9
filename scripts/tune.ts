/**
 * Parameter sweeps for the ranker on both labelled sets, each by hashed half (tune on one, check
 * on the other): the real-catalog set (R@1, S@1, R@5, MRR; scripts/eval-real.ts) and the DEV
 * bench (macro R@1, R@5, MRR and each dataset's R@5; scripts/eval-bench.ts). The first variant is
 * the defaults. A change is kept only when it gains on both halves of both sets (docs/ranking.md).
 * Usage:
 *   npx tsx scripts/tune.ts '{"k1":1.5}' '{"coverage":0.3}' ...   [--real-only]
 */

import type { ToolDefinition } from "../src/catalog/index.js";
import {
  type EvalQuery,
  evaluate,
  type RankingConfig,
  ToolSearchIndex,
} from "../src/search/index.js";
import { loadBenchDatasets, loadRealSet } from "./eval-sets.js";
import { half } from "./query-half.js";

const HALVES = ["a", "b"] as const;
const realOnly = process.argv.includes("--real-only");
const variants = ["{}", ...process.argv.slice(2).filter((arg) => !arg.startsWith("--"))];

const real = await loadRealSet();
const served = real.queries.filter((query) => query.kind !== "unserved");
const datasets = realOnly ? [] : loadBenchDatasets();

function ranker(tools: readonly ToolDefinition[], ranking: Partial<RankingConfig>) {
  const index = new ToolSearchIndex({ ranking });
  index.addAll(tools);
  return { rank: (query: string, k: number) => index.rank(query, k) };
}

const fmt = (value: number) => value.toFixed(4);
const ofHalf = (queries: readonly EvalQuery[], side: "a" | "b") =>
  queries.filter((query) => half(query.id) === side);

/** Real set per half: R@1 / S@1 (first hit relevant) / R@5 / MRR. */
function realCells(ranking: Partial<RankingConfig>): string {
  const rank = ranker(real.tools, ranking);
  return HALVES.map((side) => {
    const result = evaluate(rank, ofHalf(served, side), { perQuery: true });
    const first = (result.perQuery ?? []).filter((query) => query.reciprocalRank === 1).length;
    const cells = [result.recallAt[1], first / result.count, result.recallAt[5], result.mrr];
    return `${side} ${cells.map(fmt).join("/")}`;
  }).join("  ");
}

/** Bench per half: macro R@1 / R@5 / MRR, then each dataset's R@5 on half a / half b. */
function benchCells(ranking: Partial<RankingConfig>): string {
  const macro = { a: [0, 0, 0], b: [0, 0, 0] };
  const perDataset: string[] = [];
  for (const dataset of datasets) {
    const rank = ranker(dataset.tools, ranking);
    const recall: string[] = [];
    for (const side of HALVES) {
      const result = evaluate(rank, ofHalf(dataset.queries, side));
      const cells = [result.recallAt[1], result.recallAt[5], result.mrr];
      cells.forEach((value, at) => {
        macro[side][at] = (macro[side][at] ?? 0) + value / datasets.length;
      });
      recall.push(result.recallAt[5].toFixed(3));
    }
    perDataset.push(`${dataset.name.slice(0, 5)} ${recall.join("/")}`);
  }
  const halves = HALVES.map((side) => `${side} ${macro[side].map(fmt).join("/")}`).join("  ");
  return `${halves}\n  ${perDataset.join(" | ")}`;
}

for (const text of variants) {
  const ranking = JSON.parse(text) as Partial<RankingConfig>;
  console.log(text);
  console.log(`  real  R@1/S@1/R@5/MRR  ${realCells(ranking)}`);
  if (!realOnly) console.log(`  bench R@1/R@5/MRR      ${benchCells(ranking)}`);
}
