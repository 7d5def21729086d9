/**
 * `npm run bench -- cold-start` (issue 25): what a process pays before it answers, as ratios
 * taken in the same run. Needs `npm run build` first (the CLI runs from dist/).
 *
 * - `toolsift search` over the catalogs in ../shared/catalogs (TOOLSIFT_SHARED), warm cache
 *   and --no-cache, each against `node -e 0`, in alternating runs (targets: 3x and 6x); the CLI
 *   is the bin (`bin/toolsift.mjs`, which loads the bundle `dist/bundle/`), and a warm search
 *   through tsc's `dist/cli/main.js` is timed beside it;
 * - `createToolSift` over those tools in a fresh process: from a snapshot vs a build (100 ms);
 * - snapshot size, restore CPU time and memory against a built index at 1.4k (the real tools),
 *   10k and 100k synthetic tools, each in a fresh process; with COLD_START_BASE_DIST (another
 *   build, e.g. of main, in a folder beside a package.json and node_modules), the same for it in
 *   alternating runs, with the ratios of this build to it;
 * - whole-process `rank` of 2,000 queries over 10,000 synthetic tools (warm cache) against the
 *   same job with MiniSearch (target 0.25x), and COLD_START_BASE_DIST's when set.
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
const [distDir, catalogs, file, mode] = process.argv.slice(2);
const { createToolSift } = await import(distDir + "/index.js");
const { loadCatalogPaths } = await import(distDir + "/node.js");
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

/** The builds to time: this one, and COLD_START_BASE_DIST's when set (for ratios to it). */
function buildsToCompare(): Record<string, string> {
  const builds: Record<string, string> = { this: dist };
  if (process.env.COLD_START_BASE_DIST)
    builds.base = path.resolve(process.env.COLD_START_BASE_DIST);
  return builds;
}

function createToolSiftSection(dir: string): void {
  const script = createScript(dir);
  const builds = buildsToCompare();
  const fileOf = (build: string) => path.join(dir, `index-${build}.bin`);
  const measure = (build: string, mode: string) => {
    const result = spawnSync(
      process.execPath,
      [script, builds[build] as string, catalogs, fileOf(build), mode],
      { encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(result.stderr.slice(0, 400));
    return JSON.parse(result.stdout) as { wall: number; cpu: number; tools: number };
  };
  const jobs = Object.keys(builds).flatMap((build) => [`${build}, snapshot`, `${build}, build`]);
  for (const build of Object.keys(builds)) measure(build, "save");
  const figures: Record<string, { wall: number; cpu: number }[]> = Object.fromEntries(
    jobs.map((job) => [job, []]),
  );
  let tools = 0;
  for (let round = 0; round < runs; round += 1) {
    const order = round % 2 === 0 ? jobs : [...jobs].reverse();
    for (const job of order) {
      const [build, mode] = job.split(", ") as [string, string];
      const figure = measure(build, mode);
      tools = figure.tools;
      figures[job]?.push(figure);
    }
  }
  console.log(
    `\n### createToolSift over the ${tools} real tools, fresh process (target: 100 ms; load average ${loadAverage()})\n`,
  );
  console.log(
    "| build, from | wall ms min / median / max | CPU ms min / median / max | CPU ratio to base, snapshot (median of pairs) |\n| --- | --- | --- | --- |",
  );
  const base = figures["base, snapshot"];
  for (const [job, list] of Object.entries(figures)) {
    const ratio =
      base && job.endsWith("snapshot")
        ? `${median(list.map((f, i) => f.cpu / (base[i] as { cpu: number }).cpu)).toFixed(2)}x`
        : "";
    console.log(
      `| ${job} | ${spread(list.map((f) => f.wall))} | ${spread(list.map((f) => f.cpu))} | ${ratio} |`,
    );
  }
}

/** A script that saves or restores an index in a fresh process and prints its costs (JSON). */
function restoreScript(dir: string): string {
  const script = path.join(dir, "restore.mjs");
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync } from "node:fs";
const [distDir, catalogs, toolsFile, file, mode] = process.argv.slice(2);
const { createSearchIndex } = await import(distDir + "/index.js");
const { loadCatalogPaths } = await import(distDir + "/node.js");
const tools = toolsFile === "real"
  ? (await loadCatalogPaths([catalogs], { onInvalid: "skip" })).tools
  : JSON.parse(readFileSync(toolsFile, "utf8")).tools;
const memory = () => { globalThis.gc(); globalThis.gc(); const m = process.memoryUsage(); return { heap: m.heapUsed, arrays: m.arrayBuffers }; };
const before = memory();
// in a function, so nothing but the index outlives it (a top-level register can hold the bytes)
function fill() {
  const bytes = mode === "load" ? readFileSync(file) : undefined;
  let warned = "";
  const cpu = process.cpuUsage();
  const started = performance.now();
  const index = createSearchIndex({ ...(bytes ? { snapshot: bytes } : {}), onWarning: (m) => { warned = m; } });
  index.addAll(tools);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (warned) throw new Error(warned);
  return { index, wall, used };
}
const { index, wall, used } = fill();
const after = memory();
let size = 0;
if (mode === "save") { const snapshot = index.exportSnapshot(); size = snapshot.length; writeFileSync(file, snapshot); }
console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000, size, tools: index.size,
  heap: (after.heap - before.heap) / 2 ** 20, arrays: (after.arrays - before.arrays) / 2 ** 20 }));
`,
  );
  return script;
}

interface RestoreFigure {
  wall: number;
  cpu: number;
  size: number;
  tools: number;
  heap: number;
  arrays: number;
}

/** The load average, printed beside each figure: other jobs share the machine. */
function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

/**
 * Snapshot size, restore time and memory at 1.4k (the real tools), 10k and 100k synthetic tools,
 * each in a fresh process; with COLD_START_BASE_DIST, the same for that build in alternating
 * runs, with the ratios of this build to it.
 */
function restoreSection(dir: string): void {
  const script = restoreScript(dir);
  const builds: Record<string, string> = { this: dist };
  if (process.env.COLD_START_BASE_DIST)
    builds.base = path.resolve(process.env.COLD_START_BASE_DIST);
  const spawn = (build: string, toolsFile: string, file: string, mode: string) => {
    const result = spawnSync(
      process.execPath,
      ["--expose-gc", script, builds[build] as string, catalogs, toolsFile, file, mode],
      { encoding: "utf8", maxBuffer: 1 << 24 },
    );
    if (result.status !== 0) throw new Error(result.stderr.slice(0, 600));
    return JSON.parse(result.stdout) as RestoreFigure;
  };
  console.log(
    "\n### Restore from a snapshot, fresh process (CPU ms; memory = heap + typed arrays held by the index after a full GC)\n",
  );
  console.log(
    "| tools | build | snapshot MB | build CPU ms | load CPU ms min / median / max | load wall ms median | built MB | loaded MB | loaded / built memory | load average |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const size of ["real", ...sizes.map(String)]) {
    let toolsFile = "real";
    if (size !== "real") {
      toolsFile = path.join(dir, `tools-${size}.json`);
      writeFileSync(toolsFile, JSON.stringify({ tools: syntheticTools(Number(size)) }));
    }
    const saved: Record<string, RestoreFigure> = {};
    for (const build of Object.keys(builds)) {
      saved[build] = spawn(build, toolsFile, path.join(dir, `${build}-${size}.bin`), "save");
    }
    const loads: Record<string, RestoreFigure[]> = Object.fromEntries(
      Object.keys(builds).map((build) => [build, []]),
    );
    for (let round = 0; round < runs; round += 1) {
      const order = Object.keys(builds);
      if (round % 2 === 1) order.reverse();
      for (const build of order) {
        loads[build]?.push(spawn(build, toolsFile, path.join(dir, `${build}-${size}.bin`), "load"));
      }
    }
    for (const build of Object.keys(builds)) {
      const built = saved[build] as RestoreFigure;
      const list = loads[build] as RestoreFigure[];
      const loadedMB = median(list.map((figure) => figure.heap + figure.arrays));
      const builtMB = built.heap + built.arrays;
      console.log(
        `| ${built.tools} | ${build} | ${(built.size / 2 ** 20).toFixed(2)} | ${built.cpu.toFixed(0)} | ${spread(list.map((figure) => figure.cpu))} | ${median(list.map((figure) => figure.wall)).toFixed(0)} | ${builtMB.toFixed(1)} | ${loadedMB.toFixed(1)} | ${(loadedMB / builtMB).toFixed(2)} | ${loadAverage()} |`,
      );
    }
    const base = loads.base;
    if (base) {
      const ratio = median(
        (loads.this as RestoreFigure[]).map(
          (figure, i) => figure.cpu / (base[i] as RestoreFigure).cpu,
        ),
      );
      const sizeRatio = (saved.this as RestoreFigure).size / (saved.base as RestoreFigure).size;
      console.log(
        `| ${(saved.this as RestoreFigure).tools} | this / base | ${sizeRatio.toFixed(2)}x | | ${ratio.toFixed(2)}x (median of pairs) | | | | | |`,
      );
    }
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
  const rankWith = (bin: string, cacheDir: string) => () =>
    run(
      [bin, "rank", "--catalog", catalog, "--queries", queries, "--k", "10", "--cache", cacheDir],
      2_000,
    );
  // COLD_START_BASE_DIST's bundle beside this one, in the same alternating rounds
  const base = process.env.COLD_START_BASE_DIST;
  const baseJob = base
    ? {
        "base rank, warm cache": rankWith(
          path.join(path.resolve(base), "bundle/toolsift.js"),
          path.join(dir, "rank-cache-base"),
        ),
      }
    : {};
  compare(
    {
      minisearch: () => run([script, catalog, queries], 2_000),
      "toolsift rank, warm cache": rankWith(cli, cache),
      ...baseJob,
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
    if (parts.has("sizes")) restoreSection(dir);
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
