/**
 * Hybrid search latency against lexical search, same process, same queries: the embedder's own
 * time is excluded (query vectors are embedded before timing), so this is toolsift's added work.
 * Usage: npx tsx bench/semantic-speed.ts [SIZE|real] [DIMENSIONS]   (default: real 100)
 */

import type { ToolDefinition } from "../src/catalog/index.js";
import { type Embedder, SemanticSearch, ToolSearchIndex } from "../src/search/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";
import { seededRandom, syntheticQueries, syntheticTools } from "./synthetic.js";

const [size = "real", dimensionArg = "100"] = process.argv.slice(2);
const dimensions = Number(dimensionArg);

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
const lexical = (query: string, options: { limit?: number; cut?: boolean }) =>
  index.search(query, options);

function time(run: (query: string) => void): { p50: number; p99: number } {
  for (const query of queries) run(query);
  const samples: number[] = [];
  for (let pass = 0; pass < 5; pass += 1) {
    for (const query of queries) {
      const start = performance.now();
      run(query);
      samples.push(performance.now() - start);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (fraction: number) => samples[Math.floor(samples.length * fraction)] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

const plain = time((query) => lexical(query, { limit: 10 }));
const hybrid = time((query) => semantic.search(query, { limit: 10 }, lexical));
const ms = (value: number) => value.toFixed(3);
console.log(
  `${tools.length} tools, ${dimensions} dimensions: lexical p50 ${ms(plain.p50)} ms p99 ${ms(plain.p99)} ms | hybrid p50 ${ms(hybrid.p50)} ms p99 ${ms(hybrid.p99)} ms | ratio p50 ${(hybrid.p50 / plain.p50).toFixed(2)}× p99 ${(hybrid.p99 / plain.p99).toFixed(2)}×`,
);
