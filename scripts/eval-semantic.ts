/**
 * Hybrid (lexical + word vectors) against lexical search on the DEV datasets in ../shared/bench,
 * in one run. Build the table first (scripts/build-word-vectors.ts).
 * Usage: npx tsx scripts/eval-semantic.ts --table word-vectors.bin [--weight 0.1] [--half a|b] [--real]
 * `--real` runs the hand-judged queries over ../shared/catalogs instead of the bench datasets.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { loadCatalogPaths } from "../src/catalog/node.js";
import { createWordVectorEmbedder, parseWordVectorTable } from "../src/embedders/index.js";
import {
  type EvalQuery,
  type Evaluation,
  evaluate,
  SemanticSearch,
  ToolSearchIndex,
} from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { half } from "./query-half.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const tablePath = argument("table") ?? "word-vectors.bin";
const weight = Number(argument("weight") ?? 0.1);
const wantedHalf = argument("half");
const embedder = createWordVectorEmbedder(parseWordVectorTable(readFileSync(tablePath)));
const benchDir = path.join(sharedDir(), "bench");

function readTools(file: string): ToolDefinition[] {
  return (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>[]).map((entry) => ({
    name: String(entry.name),
    description: typeof entry.description === "string" ? entry.description : "",
    inputSchema: (entry.inputSchema as ToolDefinition["inputSchema"]) ?? { type: "object" },
    ...(typeof entry.server === "string" && entry.server ? { server: entry.server } : {}),
  }));
}

const metrics = (e: Evaluation) => [e.recallAt[1], e.recallAt[5], e.recallAt[10], e.mrr];
const fmt = (values: number[]) => values.map((value) => value.toFixed(3)).join(" ");

/** Lexical and hybrid metrics of one catalog and its queries. */
async function compare(tools: ToolDefinition[], queries: EvalQuery[]) {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  const semantic = new SemanticSearch(
    { embedder, weight },
    { list: () => tools, version: () => 0 },
    // a failed embedder stops the run (its figures would be lexical); notes such as tools with
    // an all-zero vector are printed and the run goes on
    (message) => {
      if (message.startsWith("Semantic search is off")) throw new Error(message);
      console.error(message);
    },
  );
  // the query-vector cache is bounded, so rankings are computed right after each query's embedding
  const fused = new Map<string, string[]>();
  for (const { query } of queries) {
    await semantic.prepare([query]);
    const result = semantic.search(query, { limit: 25, cut: false }, (q, o) => index.search(q, o));
    // as `rank` does for a flat list: the first hit's companions follow it
    const names = result.hits.map((hit) => hit.name);
    const companions = (result.hits[0]?.companions ?? []).map((companion) => companion.name);
    const flat = [...names.slice(0, 1), ...companions, ...names.slice(1)];
    fused.set(query, [...new Set(flat)]);
  }
  const lexical = evaluate({ rank: (query, k) => index.rank(query, k) }, queries);
  const hybrid = evaluate({ rank: (query, k) => (fused.get(query) ?? []).slice(0, k) }, queries);
  return { lexical: metrics(lexical), hybrid: metrics(hybrid) };
}

const keep = (queries: EvalQuery[]) =>
  wantedHalf === "a" || wantedHalf === "b"
    ? queries.filter((q) => half(q.id) === wantedHalf)
    : queries;
const readQueries = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EvalQuery & { kind?: string });

console.log(`${"dataset".padEnd(16)} lexical R@1 R@5 R@10 MRR  | hybrid R@1 R@5 R@10 MRR`);
if (process.argv.includes("--real")) {
  // the hand-judged queries over the 20 real servers (test/relevance), served ones only
  const here = path.dirname(new URL(import.meta.url).pathname);
  const queries = keep(
    readQueries(path.join(here, "../test/relevance/real-catalogs.jsonl")).filter(
      (q) => q.kind !== "unserved",
    ),
  );
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  const row = await compare(tools, queries);
  console.log(`${"real catalogs".padEnd(16)} ${fmt(row.lexical)} | ${fmt(row.hybrid)}`);
} else {
  const totals = { lexical: [0, 0, 0, 0], hybrid: [0, 0, 0, 0] };
  const datasets = readdirSync(benchDir).sort();
  for (const dataset of datasets) {
    const tools = readTools(path.join(benchDir, dataset, "catalog.json"));
    const row = await compare(
      tools,
      keep(readQueries(path.join(benchDir, dataset, "queries.jsonl"))),
    );
    row.lexical.forEach((value, i) => {
      totals.lexical[i] = (totals.lexical[i] ?? 0) + value;
    });
    row.hybrid.forEach((value, i) => {
      totals.hybrid[i] = (totals.hybrid[i] ?? 0) + value;
    });
    console.log(`${dataset.padEnd(16)} ${fmt(row.lexical)} | ${fmt(row.hybrid)}`);
  }
  const macro = (values: number[]) => values.map((value) => value / datasets.length);
  console.log(`${"macro".padEnd(16)} ${fmt(macro(totals.lexical))} | ${fmt(macro(totals.hybrid))}`);
}
