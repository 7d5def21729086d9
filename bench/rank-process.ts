/**
 * Whole-process comparison for `toolsift rank`: writes a synthetic catalog and a JSONL query file
 * to a temp folder, then times `node dist/cli/main.js rank` against a small MiniSearch script doing
 * the same job (read the catalog, index it, print the top 10 of every query as JSON lines), each
 * in its own process, in alternating runs. Prints each run, the medians and their ratio.
 * Needs `npm run build` first. argv: [TOOLS (10000)] [QUERIES (2000)] [RUNS (6)]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const [toolCount = 10_000, queryCount = 2_000, runs = 6] = process.argv
  .slice(2)
  .map((value) => Number(value));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist/cli/main.js");
const miniSearchUrl = new URL(`file://${createRequire(import.meta.url).resolve("minisearch")}`);

const dir = mkdtempSync(path.join(tmpdir(), "toolsift-rank-process-"));
const catalog = path.join(dir, "catalog.json");
const queries = path.join(dir, "queries.jsonl");
const script = path.join(dir, "minisearch-rank.mjs");
writeFileSync(catalog, JSON.stringify({ tools: syntheticTools(toolCount) }));
writeFileSync(
  queries,
  syntheticQueries(queryCount)
    .map((query, index) => JSON.stringify({ id: `q${index}`, query }))
    .join("\n"),
);
// the MiniSearch configuration of bench/search-speed-worker.ts: name ×3, description, parameters
writeFileSync(
  script,
  `import { readFileSync } from "node:fs";
import MiniSearch from ${JSON.stringify(miniSearchUrl.href)};
const [catalogPath, queriesPath] = process.argv.slice(2);
const tools = JSON.parse(readFileSync(catalogPath, "utf8")).tools;
const index = new MiniSearch({
  fields: ["name", "description", "parameters"],
  tokenize: (text) => text.split(/[\\s_\\-.:/]+|(?<=[a-z])(?=[A-Z])/u).filter(Boolean),
  processTerm: (term) => term.toLowerCase(),
  searchOptions: { boost: { name: 3 } },
});
index.addAll(tools.map((tool, id) => ({
  id,
  name: tool.name,
  description: tool.description ?? "",
  parameters: Object.entries(tool.inputSchema?.properties ?? {})
    .map(([name, schema]) => name + " " + (schema?.description ?? "")).join(" "),
})));
let out = "";
for (const line of readFileSync(queriesPath, "utf8").split("\\n")) {
  if (line.trim() === "") continue;
  const { id, query } = JSON.parse(line);
  const ranked = index.search(query).slice(0, 10).map((hit) => tools[hit.id].name);
  out += JSON.stringify({ id, ranked }) + "\\n";
}
process.stdout.write(out);
`,
);

const jobs = {
  toolsift: [cli, "rank", "--catalog", catalog, "--queries", queries, "--k", "10"],
  minisearch: [script, catalog, queries],
} as const;

/** Runs one job in a fresh node process; returns its wall time in ms. */
function time(name: keyof typeof jobs): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, jobs[name], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`${name} exited with ${result.status}: ${result.stderr.slice(0, 500)}`);
  }
  const lines = result.stdout.split("\n").filter(Boolean).length;
  if (lines !== queryCount) throw new Error(`${name} printed ${lines} lines, not ${queryCount}`);
  return elapsed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const times = { toolsift: [] as number[], minisearch: [] as number[] };
try {
  // one untimed run warms the file cache (MiniSearch reads the same files)
  time("toolsift");
  for (let run = 0; run < runs; run += 1) {
    // alternate which goes first, so a load swing does not favour one
    const order =
      run % 2 === 0 ? (["toolsift", "minisearch"] as const) : (["minisearch", "toolsift"] as const);
    for (const name of order) times[name].push(time(name));
    console.log(
      `run ${run + 1}: toolsift ${times.toolsift.at(-1)?.toFixed(0)} ms, minisearch ${times.minisearch.at(-1)?.toFixed(0)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const ours = median(times.toolsift);
const theirs = median(times.minisearch);
console.log(
  JSON.stringify({
    tools: toolCount,
    queries: queryCount,
    runs,
    toolsiftMs: Math.round(ours),
    minisearchMs: Math.round(theirs),
    ratio: Number((ours / theirs).toFixed(3)),
  }),
);
