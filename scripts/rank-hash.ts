/**
 * Prints a hash of the top-10 rankings and `search` results over every DEV dataset in
 * ../shared/bench, so an optimisation can prove it changed no result.
 * Usage: npx tsx scripts/rank-hash.ts [--only name,name]
 */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";
import { sharedDir } from "../test/shared-dir.js";

const benchDir = path.join(sharedDir(), "bench");
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1]?.split(",") : undefined;
const total = createHash("sha1");
for (const dataset of readdirSync(benchDir).sort()) {
  if (only && !only.includes(dataset)) continue;
  const raw = JSON.parse(readFileSync(path.join(benchDir, dataset, "catalog.json"), "utf8")) as {
    name: string;
    description?: string;
    inputSchema?: ToolDefinition["inputSchema"];
    server?: string;
  }[];
  const index = new ToolSearchIndex();
  for (const entry of raw) {
    const tool: ToolDefinition = {
      name: entry.name,
      description: entry.description ?? "",
      inputSchema: entry.inputSchema ?? { type: "object" },
    };
    if (entry.server) tool.server = entry.server;
    index.add(tool);
  }
  const hash = createHash("sha1");
  const lines = readFileSync(path.join(benchDir, dataset, "queries.jsonl"), "utf8").split("\n");
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    const query = (JSON.parse(line) as { query: string }).query;
    hash.update(`${index.rank(query, 10).join(",")}\n`);
    const found = index.search(query, { limit: 5 });
    hash.update(`${JSON.stringify(found)}\n`);
  }
  const digest = hash.digest("hex").slice(0, 16);
  total.update(digest);
  console.log(`${dataset.padEnd(16)} ${digest}`);
}
console.log(`${"all".padEnd(16)} ${total.digest("hex").slice(0, 16)}`);
