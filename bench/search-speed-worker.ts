/**
 * Measures one engine on one catalog in its own process (run with --expose-gc so memory deltas
 * are taken after a forced collection). Prints one JSON line.
 * argv: ENGINE (toolsift | minisearch) SIZE (a number, or "real" for ../shared/catalogs)
 */
import MiniSearch from "minisearch";
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const [engine = "toolsift", size = "1000"] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
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
gc();
const before = process.memoryUsage();
const started = performance.now();
const search = engine === "minisearch" ? buildMiniSearch(docs) : buildToolsift(docs);
const buildMs = performance.now() - started;
// array buffers freed by the collection are released a little later: let the sweeper finish
gc();
await new Promise((resolve) => setTimeout(resolve, 50));
gc();
const after = process.memoryUsage();
// warm both engines up (JIT, lazy structures) on a different query set of the same shape, so
// the timed pass measures a long-running process, not first-use compilation
for (const query of syntheticQueries(1000, 99)) search(query);
const latencies: number[] = [];
for (const query of queries) {
  const start = performance.now();
  search(query);
  latencies.push(performance.now() - start);
}
latencies.sort((left, right) => left - right);
console.log(
  JSON.stringify({
    engine,
    size,
    tools: docs.length,
    buildMs,
    heapMB: (after.heapUsed - before.heapUsed) / 2 ** 20,
    // `external` already includes `arrayBuffers`; the typed arrays are the array-buffer part
    externalMB: (after.arrayBuffers - before.arrayBuffers) / 2 ** 20,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
  }),
);
