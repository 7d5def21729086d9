/**
 * Parameter sweeps for the ranker on the DEV bench: every variant is scored on both hashed halves
 * of the queries (tune on a, confirm on b). Usage:
 *   npx tsx scripts/tune.ts '{"k1":1.5}' '{"coverage":0.3}' ...   (the first row is the defaults)
 */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { BaselineBM25 } from "../src/search/evaluate/baseline-bm25.js";
import {
  type EvalQuery,
  evaluate,
  type RankingConfig,
  ToolSearchIndex,
} from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";

const MAX_PER_HALF = 700;
const benchDir = path.join(sharedDir(), "bench");
const half = (id: string) =>
  (createHash("sha1").update(id).digest()[0] ?? 0) % 2 === 0 ? "a" : "b";

const datasets = readdirSync(benchDir)
  .sort()
  .map((name) => {
    const raw = JSON.parse(
      readFileSync(path.join(benchDir, name, "catalog.json"), "utf8"),
    ) as Record<string, unknown>[];
    const tools = raw.map((entry) => {
      const tool: ToolDefinition = {
        name: String(entry.name),
        description: typeof entry.description === "string" ? entry.description : "",
        inputSchema: (entry.inputSchema as ToolDefinition["inputSchema"]) ?? { type: "object" },
      };
      if (typeof entry.server === "string" && entry.server.length > 0) tool.server = entry.server;
      return tool;
    });
    const queries = readFileSync(path.join(benchDir, name, "queries.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as EvalQuery);
    const split = { a: [] as EvalQuery[], b: [] as EvalQuery[] };
    for (const query of queries) {
      const side = split[half(query.id)];
      if (side.length < MAX_PER_HALF) side.push(query);
    }
    return { name, tools, split };
  });

const baseline = datasets.map((d) => {
  const ranker = new BaselineBM25(d.tools);
  return { a: evaluate(ranker, d.split.a).recallAt[5], b: evaluate(ranker, d.split.b).recallAt[5] };
});

const variants = ["{}", ...process.argv.slice(2)];
const short = (name: string) => name.slice(0, 5);
console.log(
  `${"variant".padEnd(44)} R5a    R5b   | ${datasets.map((d) => short(d.name).padStart(6)).join(" ")} (a+b, minus baseline)`,
);
const mean = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
console.log(
  `${"baseline".padEnd(44)} ${mean(baseline.map((b) => b.a)).toFixed(4)} ${mean(baseline.map((b) => b.b)).toFixed(4)} |`,
);
for (const text of variants) {
  const ranking = JSON.parse(text) as Partial<RankingConfig>;
  const scores = datasets.map((d) => {
    const index = new ToolSearchIndex({ ranking });
    for (const tool of d.tools) index.add(tool);
    const ranker = { rank: (query: string, k: number) => index.rank(query, k) };
    return {
      a: evaluate(ranker, d.split.a).recallAt[5],
      b: evaluate(ranker, d.split.b).recallAt[5],
    };
  });
  const deltas = scores.map((s, i) =>
    ((s.a + s.b) / 2 - ((baseline[i]?.a ?? 0) + (baseline[i]?.b ?? 0)) / 2).toFixed(3).padStart(6),
  );
  console.log(
    `${text.slice(0, 44).padEnd(44)} ${mean(scores.map((s) => s.a)).toFixed(4)} ${mean(scores.map((s) => s.b)).toFixed(4)} | ${deltas.join(" ")}`,
  );
}
