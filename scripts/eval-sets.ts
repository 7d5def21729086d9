/**
 * The two labelled sets the ranking scripts measure: the DEV datasets in ../shared/bench and the
 * hand-judged queries over the 20 real MCP servers in ../shared/catalogs
 * (test/relevance/real-catalogs.jsonl). Read by eval-bench.ts, eval-real.ts and tune.ts.
 */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { loadCatalogPaths } from "../src/catalog/node.js";
import type { EvalQuery } from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";

/** One DEV dataset: its catalog and its labelled queries. */
export interface BenchDataset {
  name: string;
  tools: ToolDefinition[];
  queries: EvalQuery[];
}

/** A real-catalog query; `unserved` ones have no relevant tool in the catalogs. */
export interface RealQuery extends EvalQuery {
  kind: "keyword" | "request" | "unserved";
}

const here = path.dirname(new URL(import.meta.url).pathname);

function readJsonLines<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

function loadBenchCatalog(file: string): ToolDefinition[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>[];
  return raw.map((entry) => {
    const tool: ToolDefinition = {
      name: String(entry.name),
      description: typeof entry.description === "string" ? entry.description : "",
      inputSchema: (entry.inputSchema as ToolDefinition["inputSchema"]) ?? { type: "object" },
    };
    if (typeof entry.server === "string" && entry.server.length > 0) tool.server = entry.server;
    return tool;
  });
}

/** The DEV datasets in name order, or only those named in `only`. */
export function loadBenchDatasets(only?: readonly string[]): BenchDataset[] {
  const benchDir = path.join(sharedDir(), "bench");
  return readdirSync(benchDir)
    .filter((name) => !only || only.includes(name))
    .sort()
    .map((name) => ({
      name,
      tools: loadBenchCatalog(path.join(benchDir, name, "catalog.json")),
      queries: readJsonLines<EvalQuery>(path.join(benchDir, name, "queries.jsonl")),
    }));
}

/** The real catalogs' tools (same-named tools qualified by server) and every labelled query. */
export async function loadRealSet(): Promise<{ tools: ToolDefinition[]; queries: RealQuery[] }> {
  const queries = readJsonLines<RealQuery>(
    path.join(here, "../test/relevance/real-catalogs.jsonl"),
  );
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  return { tools, queries };
}
