/**
 * Search speed with and without a learned field at 10k tools: the synthetic catalog and queries
 * of the speed bench; every tenth tool learns 12 words from the queries, so most queries meet
 * learned words. Usage: npx tsx bench/learned-speed.ts
 */
import { ToolSearchIndex } from "../src/search/index.js";
import { tokenize } from "../src/text/index.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const tools = syntheticTools(10_000);
const queries = syntheticQueries(1_000);
const index = new ToolSearchIndex();
index.addAll(tools);

function p99(): { p50: number; p99: number } {
  const times: number[] = [];
  for (let pass = 0; pass < 5; pass += 1) {
    for (const query of queries) {
      const start = performance.now();
      index.search(query);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.floor(times.length * share)] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

const words = [...new Set(queries.flatMap((query) => tokenize(query)))];
const learned = new Map<string, { word: string; weight: number }[]>();
tools.forEach((tool, position) => {
  if (position % 10 !== 0) return;
  const entries = Array.from({ length: 12 }, (_, offset) => ({
    word: words[(position + offset * 37) % words.length] as string,
    weight: 0.5 + (offset % 5) / 10,
  }));
  learned.set(tool.name, entries);
});
p99(); // warm-up
const without = p99();
index.setLearned(learned);
p99();
const withLearned = p99();
const ms = (value: number) => value.toFixed(3);
console.log(
  `10k tools, 1,000 queries × 5 passes (ms): without learned p50 ${ms(without.p50)} p99 ${ms(without.p99)}`,
);
console.log(
  `with ${learned.size} tools × 12 learned words: p50 ${ms(withLearned.p50)} p99 ${ms(withLearned.p99)}`,
);
if (process.env.DEBUG_LEARNED) {
  let total = 0;
  for (const query of queries) {
    const hits = index.search(query, { explain: true, limit: 25 }).hits;
    total += hits.filter((hit) => hit.scoreParts?.learned !== undefined).length;
  }
  console.log(
    `learned hits in top 25 per query: ${(total / queries.length).toFixed(1)}; words ${words.length}`,
  );
}
