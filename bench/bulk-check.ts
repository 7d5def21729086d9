/**
 * Diagnostic: checks that a bulk build (`addAll`, also in two batches and after removals) ranks
 * the synthetic queries exactly as adding tools one by one does. argv: SIZE (default 20000)
 */
import { createHash } from "node:crypto";
import { ToolSearchIndex } from "../src/search/index.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const size = Number(process.argv[2] ?? 20_000);
const tools = syntheticTools(size);
const queries = syntheticQueries(300);

function digest(index: ToolSearchIndex): string {
  const hash = createHash("sha1");
  for (const query of queries) hash.update(JSON.stringify(index.search(query, { limit: 10 })));
  hash.update(
    index
      .list()
      .map((tool) => tool.name)
      .join(),
  );
  return hash.digest("hex").slice(0, 16);
}

const one = new ToolSearchIndex();
for (const tool of tools) one.add(tool);
const bulk = new ToolSearchIndex();
bulk.addAll(tools);
const halves = new ToolSearchIndex();
halves.addAll(tools.slice(0, size / 2));
halves.addAll(tools.slice(size / 4));
console.log("one by one", digest(one), "bulk", digest(bulk), "two batches", digest(halves));
for (const tool of tools.slice(0, size / 3))
  for (const index of [one, bulk]) index.remove(tool.name);
bulk.addAll(tools.slice(0, size / 10));
one.addAll(
  tools
    .slice(0, size / 10)
    .reverse()
    .reverse(),
);
console.log("after removals", digest(one), digest(bulk));
