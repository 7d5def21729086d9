/**
 * Search speed with and without a learned field at 10k tools: the synthetic catalog and queries
 * of the speed bench; every tenth tool learns 12 words from the queries and the keys of two
 * queries (recurring requests: 2,000 keys), so most queries meet learned words and some their
 * own key. Two indexes over the same tools, one with the field, timed query by query in turn,
 * so load on the machine falls on both sides alike and the ratio is of one run.
 * Usage: npx tsx bench/learned-speed.ts (or `npm run bench -- learning`)
 */
import { pathToFileURL } from "node:url";
import { ToolSearchIndex } from "../src/search/index.js";
import { queryKey, tokenize } from "../src/text/index.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

/** One side's figures, in ms: p50 and p99 are medians over passes of each pass's percentile;
 * `bestP99` is the p99 over queries of each query's fastest pass, which a shared machine's
 * scheduler pauses (a few ms, at random) rarely reach in every pass of one query. */
export interface LearnedSpeedSide {
  p50: number;
  p99: number;
  bestP99: number;
}

const PASSES = 7;

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/**
 * Learned words for every tenth tool, drawn from the queries' own words, and the keys of two
 * queries (recurring requests), so the whole-query lookup is timed too.
 */
function learnedWords(tools: readonly { name: string }[], queries: readonly string[]) {
  const words = [...new Set(queries.flatMap((query) => tokenize(query)))];
  const keys = [...new Set(queries.map((query) => queryKey(query)).filter((key) => key !== ""))];
  const learned = new Map<string, { word: string; weight: number }[]>();
  tools.forEach((tool, position) => {
    if (position % 10 !== 0) return;
    const entries = Array.from({ length: 12 }, (_, offset) => ({
      word: words[(position + offset * 37) % words.length] as string,
      weight: 0.5 + (offset % 5) / 10,
    }));
    for (const offset of [0, 1]) {
      const key = keys[(position / 10 + offset * 53) % Math.max(1, keys.length)];
      if (key !== undefined) entries.push({ word: key, weight: 0.5 });
    }
    learned.set(tool.name, entries);
  });
  return learned;
}

/** Times both indexes query by query, pass by pass; prints a table with the on/off ratio. */
export function runLearnedSpeedBench(): { off: LearnedSpeedSide; on: LearnedSpeedSide } {
  const tools = syntheticTools(10_000);
  const queries = syntheticQueries(1_000);
  const off = new ToolSearchIndex();
  off.addAll(tools);
  const on = new ToolSearchIndex();
  on.addAll(tools);
  const learned = learnedWords(tools, queries);
  on.setLearned(learned);
  const passes = {
    off: [] as { p50: number; p99: number }[],
    on: [] as { p50: number; p99: number }[],
  };
  const fastest = { off: queries.map(() => Infinity), on: queries.map(() => Infinity) };
  // pass 0 warms both up and is not counted
  for (let pass = 0; pass <= PASSES; pass += 1) {
    const times = { off: [] as number[], on: [] as number[] };
    for (const query of queries) {
      for (const [side, index] of [
        ["off", off],
        ["on", on],
      ] as const) {
        const start = performance.now();
        index.search(query);
        times[side].push(performance.now() - start);
      }
    }
    if (pass === 0) continue;
    for (const side of ["off", "on"] as const) {
      times[side].forEach((time, at) => {
        fastest[side][at] = Math.min(fastest[side][at] as number, time);
      });
      const sorted = times[side].sort((a, b) => a - b);
      passes[side].push({ p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) });
    }
  }
  const sideOf = (side: "off" | "on"): LearnedSpeedSide => ({
    p50: median(passes[side].map((entry) => entry.p50)),
    p99: median(passes[side].map((entry) => entry.p99)),
    bestP99: percentile(
      [...fastest[side]].sort((a, b) => a - b),
      0.99,
    ),
  });
  const result = { off: sideOf("off"), on: sideOf("on") };
  const ms = (value: number) => value.toFixed(3);
  console.log(
    `\n## Search with learning (10k synthetic tools, 1,000 queries × ${PASSES} passes, top 10; ms; ${learned.size} tools × 12 learned words + 2 query keys)\n`,
  );
  const ratio = (key: keyof LearnedSpeedSide) => (result.on[key] / result.off[key]).toFixed(2);
  console.log(
    "| learned field | p50 | p99 | p99 of each query's fastest pass |\n| --- | --- | --- | --- |",
  );
  for (const side of ["off", "on"] as const) {
    const { p50, p99, bestP99 } = result[side];
    console.log(`| ${side} | ${ms(p50)} | ${ms(p99)} | ${ms(bestP99)} |`);
  }
  console.log(`| on / off | ${ratio("p50")} | ${ratio("p99")} | ${ratio("bestP99")} |`);
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runLearnedSpeedBench();
