/**
 * Measures one engine on one catalog in its own process (run with --expose-gc so memory deltas
 * are taken after a forced collection). Prints one JSON line.
 * argv: ENGINE (toolsift | minisearch) SIZE (a number, or "real" for ../shared/catalogs)
 *       [PASSES (timed passes over the 1,000 queries, default 7)] [SLOWEST (print the N slowest
 *       queries by their median time to stderr, default 0)]
 *
 * Latency is timed over several passes of the same 1,000 queries after a warm-up pass, so a
 * single GC pause or scheduler hiccup cannot decide the p99: the row reports the median over
 * passes of each pass's p99 (`p99`), the p99 of all timings pooled (`p99Pooled`), the p99 of each
 * query's median time over the passes (`p99Query`: a query shape that is slow every time still
 * shows here) and the slowest single timing (`max`). GC pauses during the timed passes are counted.
 */
import { PerformanceObserver } from "node:perf_hooks";
import MiniSearch from "minisearch";
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const [engine = "toolsift", size = "1000", passArg = "7", slowArg = "0"] = process.argv.slice(2);
const passes = Math.max(1, Number(passArg) || 7);
const slowest = Math.max(0, Number(slowArg) || 0);
const BUDGET_MS = 40_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

const ascending = (left: number, right: number) => left - right;

function median(values: readonly number[]): number {
  return percentile([...values].sort(ascending), 0.5);
}

function parameterText(tool: ToolDefinition): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<
    string,
    { description?: string }
  >;
  return Object.entries(properties)
    .map(([name, schema]) => `${name} ${schema?.description ?? ""}`)
    .join(" ");
}

type Searcher = (query: string) => unknown;

function buildToolsift(tools: ToolDefinition[]): Searcher {
  const index = new ToolSearchIndex();
  // BUILD=add measures adding one tool at a time; the default is the bulk path big catalogs use
  if (process.env.BUILD === "add") for (const tool of tools) index.add(tool);
  else index.addAll(tools);
  return (query) => index.search(query, { limit: 10 });
}

function buildMiniSearch(tools: ToolDefinition[]): Searcher {
  // the configuration measured in shared/reference/deps.md: name boosted ×3, description, parameters
  const index = new MiniSearch<{
    id: number;
    name: string;
    description: string;
    parameters: string;
  }>({
    fields: ["name", "description", "parameters"],
    tokenize: (text) => text.split(/[\s_\-.:/]+|(?<=[a-z])(?=[A-Z])/u).filter(Boolean),
    processTerm: (term) => term.toLowerCase(),
    searchOptions: { boost: { name: 3 } },
  });
  index.addAll(
    tools.map((tool, id) => ({
      id,
      name: tool.name,
      description: tool.description,
      parameters: parameterText(tool),
    })),
  );
  return (query) => index.search(query).slice(0, 10);
}

const tools = size === "real" ? await loadRealCatalogs() : syntheticTools(Number(size));
// flatten generator strings so neither engine pays for rope strings during its build
const docs = JSON.parse(JSON.stringify(tools)) as ToolDefinition[];
const queries = syntheticQueries(1000);
// settle the heap the same way before and after the build, so the difference is the index's
async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  return process.memoryUsage();
}
const before = await settledMemory();
const started = performance.now();
const search = engine === "minisearch" ? buildMiniSearch(docs) : buildToolsift(docs);
const buildMs = performance.now() - started;
// array buffers freed by a collection are released a little later: the wait lets the sweeper finish
const after = await settledMemory();
// warm both engines up (JIT, lazy structures) on a different query set of the same shape, so
// the timed passes measure a long-running process, not first-use compilation
for (const query of syntheticQueries(1000, 99)) search(query);
gc();
// times[pass * queries.length + query]
const times = new Float64Array(passes * queries.length);
let gcCount = 0;
let gcMs = 0;
let gcMaxMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcCount += 1;
    gcMs += entry.duration;
    gcMaxMs = Math.max(gcMaxMs, entry.duration);
  }
});
observer.observe({ entryTypes: ["gc"] });
// a slow engine (MiniSearch at 100k tools) gets fewer passes: none starts after BUDGET_MS
const timedFrom = performance.now();
let passesRun = 0;
for (let pass = 0; pass < passes; pass += 1) {
  if (pass > 0 && performance.now() - timedFrom > BUDGET_MS) break;
  passesRun += 1;
  for (let query = 0; query < queries.length; query += 1) {
    const text = queries[query] as string;
    const start = performance.now();
    search(text);
    times[pass * queries.length + query] = performance.now() - start;
  }
}
// let the observer deliver the last entries
await new Promise((resolve) => setTimeout(resolve, 10));
observer.disconnect();
const samples = times.subarray(0, passesRun * queries.length);
const pooled = [...samples].sort(ascending);
const passP99: number[] = [];
for (let pass = 0; pass < passesRun; pass += 1) {
  const slice = [...times.subarray(pass * queries.length, (pass + 1) * queries.length)];
  passP99.push(percentile(slice.sort(ascending), 0.99));
}
const perQuery = queries.map((text, query) => ({
  text,
  ms: median(
    Array.from({ length: passesRun }, (_, pass) => times[pass * queries.length + query] ?? 0),
  ),
}));
const perQueryMs = perQuery.map((entry) => entry.ms).sort(ascending);
if (slowest > 0) {
  const slow = [...perQuery].sort((a, b) => b.ms - a.ms).slice(0, slowest);
  for (const entry of slow) console.error(`${entry.ms.toFixed(3)} ms  ${entry.text}`);
}
console.log(
  JSON.stringify({
    engine,
    size,
    tools: docs.length,
    buildMs,
    heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20,
    // `external` already includes `arrayBuffers`; the typed arrays are the array-buffer part
    externalMB: (after.arrayBuffers - before.arrayBuffers) / 2 ** 20,
    passes: passesRun,
    samples: samples.length,
    p50: percentile(pooled, 0.5),
    p95: percentile(pooled, 0.95),
    p99: median(passP99),
    passP99,
    p99Pooled: percentile(pooled, 0.99),
    p99Query: percentile(perQueryMs, 0.99),
    max: pooled[pooled.length - 1] ?? Number.NaN,
    gcCount,
    gcMs,
    gcMaxMs,
  }),
);
