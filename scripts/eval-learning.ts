/**
 * The split-half learning experiment on the real-catalog set (test/relevance/real-catalogs.jsonl
 * over ../shared/catalogs): each served query of one hashed half, with its first relevant tool,
 * is fed as usage from `--sessions` simulated sessions (default 3, the least support that
 * counts); the other half is measured with and without it, then the halves swap. "same half"
 * (learning from the very queries measured) is the ceiling, not a result.
 * `--misses` lists each same-half query whose learned tool is not first after learning, with
 * why (`learning-misses.ts`).
 * Usage: npx tsx scripts/eval-learning.ts [--sessions 3] [--write-usage DIR] [--misses]
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadCatalogPaths } from "../src/catalog/node.js";
import { UsageEvidence } from "../src/learning/index.js";
import { type EvalQuery, type Evaluation, evaluate, ToolSearchIndex } from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { printMisses } from "./learning-misses.js";
import { half } from "./query-half.js";

interface RealQuery extends EvalQuery {
  kind: "keyword" | "request" | "unserved";
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const sessions = Number(argument("sessions") ?? 3);
const here = path.dirname(new URL(import.meta.url).pathname);
const queries = readFileSync(path.join(here, "../test/relevance/real-catalogs.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim().length > 0)
  .map((line) => JSON.parse(line) as RealQuery);
const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
  duplicates: "qualify",
});
const index = new ToolSearchIndex();
index.addAll(tools);

/** Usage lines of a set of queries: each (query, first relevant tool) from `sessions` sessions. */
function usageOf(set: readonly RealQuery[]): { query: string; tool: string; session: string }[] {
  const lines: { query: string; tool: string; session: string }[] = [];
  for (const query of set) {
    const tool = query.relevant.find((name) => index.has(name));
    if (tool === undefined) continue;
    for (let count = 0; count < sessions; count += 1) {
      lines.push({ query: query.query, tool, session: `${query.id}#${count}` });
    }
  }
  return lines;
}

function learnFrom(lines: readonly { query: string; tool: string; session: string }[]) {
  const evidence = new UsageEvidence();
  for (const line of lines)
    evidence.record(line.query, index.get(line.tool) as never, line.session);
  const learned = evidence.learnedWords((name) => index.get(name));
  index.setLearned(learned);
  return learned;
}

const served = queries.filter((query) => query.kind !== "unserved");
const halves = {
  a: served.filter((q) => half(q.id) === "a"),
  b: served.filter((q) => half(q.id) === "b"),
};
const fmt = (value: number) => value.toFixed(3);
const cells = (e: Evaluation) => `${fmt(e.recallAt[1])}  ${fmt(e.recallAt[5])}  ${fmt(e.mrr)}`;
const ranker = { rank: (query: string, k: number) => index.rank(query, k) };

const outDir = argument("write-usage");
const misses: string[] = [];
if (outDir) mkdirSync(outDir, { recursive: true });
console.log(`sessions per pair: ${sessions}`);
console.log(
  `${"measured".padEnd(10)} ${"usage from".padEnd(12)} ${"n".padStart(4)}  R@1    R@5    MRR`,
);
for (const measured of ["a", "b"] as const) {
  const other = measured === "a" ? "b" : "a";
  const set = halves[measured];
  index.setLearned(new Map());
  const none = evaluate(ranker, set);
  const otherUsage = usageOf(halves[other]);
  if (outDir) {
    const text = otherUsage.map((line) => JSON.stringify(line)).join("\n");
    writeFileSync(path.join(outDir, `usage-half-${other}.jsonl`), `${text}\n`);
  }
  learnFrom(otherUsage);
  const held = evaluate(ranker, set);
  const learned = learnFrom(usageOf(set));
  const same = evaluate(ranker, set);
  if (process.argv.includes("--misses")) {
    const learnedTool = (query: RealQuery) => query.relevant.find((name) => index.has(name));
    misses.push(...printMisses(index, set, learned, learnedTool, `half ${measured}`));
  }
  console.log(
    `${`half ${measured}`.padEnd(10)} ${"none".padEnd(12)} ${String(set.length).padStart(4)}  ${cells(none)}`,
  );
  console.log(
    `${`half ${measured}`.padEnd(10)} ${`half ${other}`.padEnd(12)} ${String(set.length).padStart(4)}  ${cells(held)}`,
  );
  console.log(
    `${`half ${measured}`.padEnd(10)} ${"same half".padEnd(12)} ${String(set.length).padStart(4)}  ${cells(same)}`,
  );
}

// unserved queries: what the first hit's confidence says, with usage from all served queries
learnFrom(usageOf(served));
const levels = new Map<string, number>();
for (const query of queries.filter((q) => q.kind === "unserved")) {
  const level = index.search(query.query, { limit: 5 }).hits[0]?.confidence?.level ?? "no hit";
  levels.set(level, (levels.get(level) ?? 0) + 1);
}
if (misses.length > 0) console.log(`\n${misses.join("\n")}`);
console.log(
  `\nunserved first hits with all served usage: ${JSON.stringify(Object.fromEntries(levels))}`,
);
