/**
 * Retrieval benchmark on the DEV datasets in ../shared/bench: ours vs the plain BM25 baseline.
 * Usage: npx tsx scripts/eval-bench.ts [--half a|b] [--ranking '{"k1":1.5}'] [--only name,name] [--json]
 * `--half` keeps the queries whose hashed id falls in one half (tune on a, check on b).
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { BaselineBM25 } from "../src/search/evaluate/baseline-bm25.js";
import {
  type EvalQuery,
  type Evaluation,
  evaluate,
  type RankingConfig,
  ToolSearchIndex,
} from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { half } from "./query-half.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function loadCatalog(file: string): ToolDefinition[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>[];
  return raw.map((entry) => {
    const tool: ToolDefinition = {
      name: String(entry.name),
      description: typeof entry.description === "string" ? entry.description : "",
      inputSchema: (entry.inputSchema as ToolDefinition["inputSchema"]) ?? { type: "object" },
    };
    if (typeof entry.server === "string" && entry.server.length > 0) tool.server = entry.server;
    return tool;
  });
}

function loadQueries(file: string): EvalQuery[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as EvalQuery);
}

const benchDir = path.join(sharedDir(), "bench");
const only = argument("only")?.split(",");
const wantedHalf = argument("half");
const rankingText = argument("ranking");
const ranking = rankingText ? (JSON.parse(rankingText) as Partial<RankingConfig>) : undefined;
const datasets = readdirSync(benchDir)
  .filter((name) => !only || only.includes(name))
  .sort();

const rows: { dataset: string; ours: Evaluation; base: Evaluation }[] = [];
for (const dataset of datasets) {
  const tools = loadCatalog(path.join(benchDir, dataset, "catalog.json"));
  let queries = loadQueries(path.join(benchDir, dataset, "queries.jsonl"));
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
