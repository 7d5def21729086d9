/**
 * `npm run bench -- cold-start` (issue 25): what a process pays before it answers, as ratios
 * taken in the same run. Needs `npm run build` first (the CLI runs from dist/).
 *
 * - `toolsift search` over the catalogs in ../shared/catalogs (TOOLSIFT_SHARED), warm cache
 *   and --no-cache, each against `node -e 0`, in alternating runs (targets: 3x and 6x); the CLI
 *   is the bin (`bin/toolsift.mjs`, which loads the bundle `dist/bundle/`), and a warm search
 *   through tsc's `dist/cli/main.js` is timed beside it;
 * - `createToolSift` over those tools in a fresh process: from a snapshot vs a build (100 ms);
 * - snapshot size and load time at 1.4k (the real tools), 10k and 100k synthetic tools;
 * - whole-process `rank` of 2,000 queries over 10,000 synthetic tools (warm cache) against the
 *   same job with MiniSearch (target 0.25x).
 * Times are wall and, on Linux, the children's CPU seconds (from /proc/self/stat), which a loaded
 * machine disturbs less. Environment: COLD_START_RUNS (5), COLD_START_SIZES ("10000,100000"),
 * COLD_START_PARTS (which parts to run: "search,create,sizes,rank"), COLD_START_RANK_VOCABULARY
 * (the rank part's synthetic catalogs: "fixed,wide", see `SyntheticVocabulary`), COLD_START_DIST
 * (the built package to time, default dist/; a copy lets the bench run while dist/ is rebuilt).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolSearchIndex } from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { type SyntheticVocabulary, syntheticQueries, syntheticTools } from "./synthetic.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.resolve(root, process.env.COLD_START_DIST ?? "dist");
// what `toolsift` runs: the bin (which loads dist/bundle), or a copy's bundle as the bin would
const cli = process.env.COLD_START_DIST
  ? path.join(dist, "bundle/toolsift.js")
  : path.join(root, "bin/toolsift.mjs");
// tsc's build of the same CLI, as the README's client configs run it
const tscCli = path.join(dist, "cli/main.js");
const parts = new Set((process.env.COLD_START_PARTS ?? "search,create,sizes,rank").split(","));
const rankVocabularies = (process.env.COLD_START_RANK_VOCABULARY ?? "fixed,wide").split(
  ",",
) as SyntheticVocabulary[];
const catalogs = path.join(sharedDir(), "catalogs");
const runs = Number(process.env.COLD_START_RUNS ?? 5);
const sizes = (process.env.COLD_START_SIZES ?? "10000,100000").split(",").map(Number);

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** The CPU time of waited-for children so far, in ms (Linux); NaN elsewhere. */
function childrenCpuMs(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    // cutime and cstime are fields 16 and 17 of stat, 14 and 15 after the command name
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function run(args: readonly string[], expectLines?: number): Sample {
  const cpu = childrenCpuMs();
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const wallMs = performance.now() - started;
  if (result.status !== 0 && !(result.status === 1 && args.includes("search"))) {
    throw new Error(
      `node ${args.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 400)}`,
    );
  }
  if (expectLines !== undefined) {
    const lines = result.stdout.split("\n").filter(Boolean).length;
    if (lines !== expectLines)
      throw new Error(`${args[0]} printed ${lines} lines, not ${expectLines}`);
  }
  return { wallMs, cpuMs: childrenCpuMs() - cpu };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const spread = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;

/** Runs each job in turn, `runs` times (after one untimed round); ratios pair by pair to `base`. */
function compare(jobs: Record<string, () => Sample>, base: string): void {
  for (const job of Object.values(jobs)) job();
  const samples: Record<string, Sample[]> = Object.fromEntries(
    Object.keys(jobs).map((k) => [k, []]),
  );
  for (let round = 0; round < runs; round += 1) {
    const names = Object.keys(jobs);
    if (round % 2 === 1) names.reverse();
    for (const name of names) samples[name]?.push((jobs[name] as () => Sample)());
  }
  console.log(
    "| job | wall ms min / median / max | CPU ms min / median / max | median ratio to " +
      base +
      " (wall, CPU) |",
  );
  console.log("| --- | --- | --- | --- |");
  const baseSamples = samples[base] as Sample[];
  for (const [name, list] of Object.entries(samples)) {
    const wallRatio = median(list.map((s, i) => s.wallMs / (baseSamples[i] as Sample).wallMs));
    const cpuRatio = median(list.map((s, i) => s.cpuMs / (baseSamples[i] as Sample).cpuMs));
    console.log(
      `| ${name} | ${spread(list.map((s) => s.wallMs))} | ${spread(list.map((s) => s.cpuMs))} | ${wallRatio.toFixed(2)}x, ${cpuRatio.toFixed(2)}x |`,
    );
  }
}

/** A script that times `createToolSift` over the catalogs, from `index.bin` when it exists. */
function createScript(dir: string): string {
  const script = path.join(dir, "create.mjs");
  writeFileSync(
    script,
    `import { existsSync, readFileSync, writeFileSync } from "node:fs";
const { createToolSift } = await import(${JSON.stringify(path.join(dist, "index.js"))});
const { loadCatalogPaths } = await import(${JSON.stringify(path.join(dist, "node.js"))});
const [catalogs, file, mode] = process.argv.slice(2);
const { tools } = await loadCatalogPaths([catalogs], { onInvalid: "skip" });
const index = mode === "snapshot" ? readFileSync(file) : undefined;
let warned = "";
const cpu = process.cpuUsage();
const started = performance.now();
const sift = createToolSift({ tools, ...(index ? { index } : {}), onWarning: (m) => { warned = m; } });
const wall = performance.now() - started;
const used = process.cpuUsage(cpu);
if (mode === "save") writeFileSync(file, sift.exportIndex());
if (warned) throw new Error(warned);
console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000, tools: tools.length }));
`,
  );
  return script;
}

function createToolSiftSection(dir: string): void {
  const script = createScript(dir);
  const file = path.join(dir, "index.bin");
  spawnSync(process.execPath, [script, catalogs, file, "save"], { encoding: "utf8" });
  const measure = (mode: string) => {
    const result = spawnSync(process.execPath, [script, catalogs, file, mode], {
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(result.stderr.slice(0, 400));
    return JSON.parse(result.stdout) as { wall: number; cpu: number; tools: number };
  };
  const figures: Record<string, { wall: number; cpu: number }[]> = { snapshot: [], build: [] };
  let tools = 0;
  for (let round = 0; round < runs; round += 1) {
    for (const mode of round % 2 === 0 ? ["snapshot", "build"] : ["build", "snapshot"]) {
      const figure = measure(mode);
      tools = figure.tools;
      figures[mode]?.push(figure);
    }
  }
  console.log(
    `\n### createToolSift over the ${tools} real tools, fresh process (target: 100 ms)\n`,
  );
  console.log(
    "| from | wall ms min / median / max | CPU ms min / median / max |\n| --- | --- | --- |",
  );
  for (const [mode, list] of Object.entries(figures)) {
    console.log(
      `| ${mode} | ${spread(list.map((f) => f.wall))} | ${spread(list.map((f) => f.cpu))} |`,
    );
  }
}

function snapshotSizes(): void {
  console.log(
    "\n### Snapshot size and load time (this process; load = a fresh index reading it)\n",
  );
  console.log("| tools | snapshot MB | build ms | load ms |\n| --- | --- | --- | --- |");
  for (const count of sizes) {
    const tools = syntheticTools(count);
    let started = performance.now();
    const built = new ToolSearchIndex();
    built.addAll(tools);
    const buildMs = performance.now() - started;
    const snapshot = built.exportSnapshot();
    started = performance.now();
    const loaded = new ToolSearchIndex({
      snapshot,
      onWarning: (message) => {
        throw new Error(message);
      },
    });
    loaded.addAll(tools);
    const loadMs = performance.now() - started;
    console.log(
      `| ${count} | ${(snapshot.length / 2 ** 20).toFixed(2)} | ${buildMs.toFixed(0)} | ${loadMs.toFixed(0)} |`,
    );
  }
}

function rankSection(dir: string, vocabulary: SyntheticVocabulary): void {
  const catalog = path.join(dir, `synthetic-${vocabulary}.json`);
  const queries = path.join(dir, `queries-${vocabulary}.jsonl`);
  const script = path.join(dir, "minisearch-rank.mjs");
  writeFileSync(catalog, JSON.stringify({ tools: syntheticTools(10_000, 42, vocabulary) }));
  writeFileSync(
    queries,
    syntheticQueries(2_000, 7, vocabulary, 10_000)
      .map((query, index) => JSON.stringify({ id: `q${index}`, query }))
      .join("\n"),
  );
  const miniSearch = new URL(`file://${createRequire(import.meta.url).resolve("minisearch")}`);
  // the configuration of bench/rank-process.ts: name x3, description, parameters
  writeFileSync(
    script,
    `import { readFileSync } from "node:fs";
import MiniSearch from ${JSON.stringify(miniSearch.href)};
const [catalogPath, queriesPath] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(catalogPath, "utf8")).tools;
const index = new MiniSearch({
  fields: ["name", "description", "parameters"],
  tokenize: (text) => text.split(/[\\s_\\-.:/]+|(?<=[a-z])(?=[A-Z])/u).filter(Boolean),
  processTerm: (term) => term.toLowerCase(),
  searchOptions: { boost: { name: 3 } },
});
index.addAll(tools.map((tool, id) => ({ id, name: tool.name, description: tool.description ?? "",
  parameters: Object.entries(tool.inputSchema?.properties ?? {}).map(([n, s]) => n + " " + (s?.description ?? "")).join(" ") })));
let out = "";
for (const line of readFileSync(queriesPath, "utf8").split("\\n")) {
  if (line.trim() === "") continue;
  const { id, query } = JSON.parse(line);
  out += JSON.stringify({ id, ranked: index.search(query).slice(0, 10).map((hit) => tools[hit.id].name) }) + "\\n";
}
process.stdout.write(out);
`,
  );
  const cache = path.join(dir, "rank-cache");
  console.log(
    `\n### Whole-process rank, 2,000 queries over 10,000 synthetic tools, ${vocabulary} vocabulary (target: 0.25x MiniSearch)\n`,
  );
  compare(
    {
      minisearch: () => run([script, catalog, queries], 2_000),
      "toolsift rank, warm cache": () =>
        run(
          [cli, "rank", "--catalog", catalog, "--queries", queries, "--k", "10", "--cache", cache],
          2_000,
        ),
      "toolsift rank, --no-cache": () =>
        run(
          [cli, "rank", "--catalog", catalog, "--queries", queries, "--k", "10", "--no-cache"],
          2_000,
        ),
    },
    "minisearch",
  );
}

/** Runs every part and prints Markdown tables. */
export function runColdStartBench(): void {
  if (!existsSync(path.join(dist, "bundle/toolsift.js")) || !existsSync(tscCli)) {
    throw new Error("cold-start needs the build: run `npm run build` first.");
  }
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-cold-start-"));
  try {
    const cache = path.join(dir, "cache");
    console.log(`\n## Cold start (issue 25; ${runs} runs each, alternating)\n`);
    if (parts.has("search")) searchSection(cache);
    if (parts.has("create")) createToolSiftSection(dir);
    if (parts.has("sizes")) snapshotSizes();
    if (parts.has("rank")) for (const vocabulary of rankVocabularies) rankSection(dir, vocabulary);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function searchSection(cache: string): void {
  const query = "create a github issue";
  console.log(`### toolsift search over ${catalogs} (targets: warm 3x, no cache 6x node -e 0)\n`);
  compare(
    {
      "node -e 0": () => run(["-e", "0"]),
      "search, warm cache": () =>
        run([cli, "search", query, "--catalog", catalogs, "--cache", cache]),
      "search, --no-cache": () => run([cli, "search", query, "--catalog", catalogs, "--no-cache"]),
      "search, warm cache, dist/cli/main.js": () =>
        run([tscCli, "search", query, "--catalog", catalogs, "--cache", cache]),
    },
    "node -e 0",
  );
}
