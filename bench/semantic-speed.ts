/**
 * Hybrid search latency against lexical search, same process, same queries: the embedder's own
 * time is excluded (query vectors are embedded before timing), so this is toolsift's added work.
 * Usage: npx tsx bench/semantic-speed.ts [SIZE|real] [DIMENSIONS] [RUNS]   (default: real 100 6)
 *
 * Each run times lexical and hybrid in turn (which goes first alternates), three passes over 500
 * queries, and takes each query's median; a run's p50 and p99 are over those medians. The
 * figures are the medians over runs. Two ways of searching are timed: `search` (limit 10 with
 * the tail cut, as `tool_search` and `searchAsync` run) and `rank` (limit 25, no cut, as an
 * evaluation runs), where tools no query word matched can still fill places, so the hybrid
 * scores every tool vector.
 */

import type { ToolDefinition } from "../src/catalog/index.js";
import {
  type Embedder,
  type SearchOptions,
  SemanticSearch,
  ToolSearchIndex,
} from "../src/search/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";
import { seededRandom, syntheticQueries, syntheticTools } from "./synthetic.js";

const [size = "real", dimensionArg = "100", runArg = "6"] = process.argv.slice(2);
const dimensions = Number(dimensionArg);
const runs = Math.max(1, Number(runArg) || 6);

// vectors from a seeded generator keyed by the text: as costly to score as a real model's
function hashEmbedder(): Embedder {
  return {
    id: "hash",
    embed: async (texts) =>
      texts.map((text) => {
        let seed = 7;
        for (let index = 0; index < text.length; index += 1)
          seed = (seed * 31 + text.charCodeAt(index)) >>> 0;
        const random = seededRandom(seed);
        return Float32Array.from({ length: dimensions }, () => random() - 0.5);
      }),
  };
}

const tools: ToolDefinition[] =
  size === "real" ? await loadRealCatalogs() : syntheticTools(Number(size));
const queries = syntheticQueries(500);
const index = new ToolSearchIndex();
index.addAll(tools);
const semantic = new SemanticSearch(
  { embedder: hashEmbedder() },
  { list: () => tools, version: () => 0 },
  (message) => {
    throw new Error(message);
  },
);
await semantic.prepare(queries);
const lexical = (query: string, options: SearchOptions) => index.search(query, options);

const at = (sorted: readonly number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
const median = (values: readonly number[]) =>
  at(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** p50 and p99 of the per-query medians over three passes. */
function time(run: (query: string) => void): { p50: number; p99: number } {
  for (const query of queries) run(query);
  const samples = queries.map(() => [] as number[]);
  for (let pass = 0; pass < 3; pass += 1) {
    queries.forEach((query, position) => {
      const start = performance.now();
      run(query);
      samples[position]?.push(performance.now() - start);
    });
  }
  const medians = samples.map(median).sort((a, b) => a - b);
  return { p50: at(medians, 0.5), p99: at(medians, 0.99) };
}

const ms = (value: number) => value.toFixed(3);
for (const [label, options] of [
  ["search", { limit: 10 }],
  ["rank", { limit: 25, cut: false }],
] as const) {
  const plain: { p50: number; p99: number }[] = [];
  const hybrid: { p50: number; p99: number }[] = [];
  const timeLexical = () => plain.push(time((query) => lexical(query, options)));
  const timeHybrid = () => hybrid.push(time((query) => semantic.search(query, options, lexical)));
  for (let run = 0; run < runs; run += 1) {
    if (run % 2 === 0) {
      timeLexical();
      timeHybrid();
    } else {
      timeHybrid();
      timeLexical();
    }
  }
  const p50 = [median(plain.map((r) => r.p50)), median(hybrid.map((r) => r.p50))] as const;
  const p99 = [median(plain.map((r) => r.p99)), median(hybrid.map((r) => r.p99))] as const;
  console.log(
    `${tools.length} tools, ${dimensions} dimensions, ${label} (${runs} runs): lexical p50 ${ms(p50[0])} p99 ${ms(p99[0])} ms | hybrid p50 ${ms(p50[1])} p99 ${ms(p99[1])} ms | ratio p50 ${(p50[1] / p50[0]).toFixed(2)}× p99 ${(p99[1] / p99[0]).toFixed(2)}×`,
  );
}
