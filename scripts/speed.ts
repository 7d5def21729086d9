/**
 * Quick speed check: build time, memory and query latency on seeded synthetic catalogs, and
 * MiniSearch at the same size for comparison.
 * Usage: node --expose-gc --import tsx scripts/speed.ts [10000] [100000]
 */

import MiniSearch from "minisearch";
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS =
  "get list create update delete search send fetch run start stop read write move copy sync export import archive restore approve".split(
    " ",
  );
const SYLLABLES =
  "ba ko ri tu me sa lo ne vi da po ge fu ha ji ka mo nu pe ro si ta wu ye zo".split(" ");
const FILLER =
  "the a of for in with by from and to returns given specified current all new optional required list details value id name status time date owner account".split(
    " ",
  );

/** A vocabulary of pronounceable made-up words, so term statistics resemble a real catalog's. */
function vocabulary(size: number, seed: number): string[] {
  const random = mulberry32(seed);
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    words.add(
      Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(""),
    );
  }
  return [...words];
}

const NOUNS = vocabulary(5000, 3);

/** Picks with a Zipf-like skew: low indexes are much more frequent. */
function skewed(random: () => number, list: string[]): string {
  return list[Math.floor(list.length * random() ** 3)] as string;
}

function generate(count: number, seed: number): ToolDefinition[] {
  const random = mulberry32(seed);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)] as string;
  const sentence = () =>
    Array.from({ length: 6 + Math.floor(random() * 8) }, () =>
      random() < 0.5 ? skewed(random, NOUNS) : pick(FILLER),
    ).join(" ");
  return Array.from({ length: count }, (_, n) => {
    const properties: Record<string, unknown> = {};
    for (let p = 0; p < 2 + Math.floor(random() * 7); p += 1) {
      properties[`${skewed(random, NOUNS)}_${pick(["id", "name", "limit", "filter"])}`] = {
        type: "string",
        description: sentence(),
      };
    }
    return {
      name: `mcp__server${n % 97}__${pick(VERBS)}_${skewed(random, NOUNS)}_${n}`,
      description: Array.from({ length: 1 + Math.floor(random() * 3) }, sentence).join(". "),
      inputSchema: { type: "object", properties },
      server: `server${n % 97}`,
    };
  });
}

/** 1,000 queries of 2–4 words; about 10% of the words are outside the vocabulary. */
function queries(seed: number): string[] {
  const random = mulberry32(seed);
  const outside = vocabulary(200, 99).map((word) => `${word}x`);
  const word = () => {
    const roll = random();
    if (roll < 0.1) return outside[Math.floor(random() * outside.length)] as string;
    if (roll < 0.3) return VERBS[Math.floor(random() * VERBS.length)] as string;
    return skewed(random, NOUNS);
  };
  return Array.from({ length: 1000 }, () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, word).join(" "),
  );
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Wall-clock and CPU-time percentiles (CPU time is unaffected by other processes on a shared machine). */
function time(
  run: (query: string) => unknown,
  list: string[],
): { p50: number; p99: number; cpu50: number; cpu99: number } {
  for (const query of list.slice(0, 50)) run(query);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const query of list) {
    const started = performance.now();
    const before = process.cpuUsage();
    run(query);
    const used = process.cpuUsage(before);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    p50: percentile(wall, 0.5),
    p99: percentile(wall, 0.99),
    cpu50: percentile(cpu, 0.5),
    cpu99: percentile(cpu, 0.99),
  };
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
for (const size of sizes.length > 0 ? sizes : [10_000]) {
  const tools = JSON.parse(JSON.stringify(generate(size, 42))) as ToolDefinition[];
  const list = queries(7);
  const before = heap();
  const started = performance.now();
  const index = new ToolSearchIndex();
  for (const tool of tools) index.add(tool);
  const buildMs = performance.now() - started;
  const memory = (heap() - before) / 1e6;
  const ours = time((query) => index.search(query, { limit: 10 }), list);
  console.log(
    `ours       ${size} tools: build ${buildMs.toFixed(0)} ms, memory ${memory.toFixed(1)} MB, p50 ${ours.p50.toFixed(3)} ms, p99 ${ours.p99.toFixed(3)} ms (cpu p50 ${ours.cpu50.toFixed(3)}, p99 ${ours.cpu99.toFixed(3)} ms)`,
  );
  if (size <= 20_000) {
    const mini = new MiniSearch<{ id: number; name: string; description: string }>({
      fields: ["name", "description"],
      storeFields: [],
    });
    mini.addAll(
      tools.map((tool, id) => ({
        id,
        name: tool.name.replace(/_/g, " "),
        description: tool.description,
      })),
    );
    const theirs = time((query) => mini.search(query).slice(0, 10), list);
    console.log(
      `minisearch ${size} tools: p50 ${theirs.p50.toFixed(3)} ms, p99 ${theirs.p99.toFixed(3)} ms (cpu p99 ${theirs.cpu99.toFixed(3)} ms; ours is ${(theirs.p99 / ours.p99).toFixed(1)}x faster at p99)`,
    );
  }
}
