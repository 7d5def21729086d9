/**
 * Prints a hash of `search` results (names and scores) for the synthetic queries over synthetic
 * catalogs of several sizes, so a speed change to the dense scoring path can prove it changed no
 * result (scripts/rank-hash.ts covers the real datasets, which are too small for that path).
 * Usage: npx tsx bench/synthetic-hash.ts
 */
import { createHash } from "node:crypto";
import { ToolSearchIndex } from "../src/search/index.js";
import { syntheticQueries, syntheticTools } from "./synthetic.js";

const total = createHash("sha1");
for (const size of [300, 3000, 10000]) {
  const index = new ToolSearchIndex();
  index.addAll(syntheticTools(size));
  const hash = createHash("sha1");
  for (const query of syntheticQueries(1000)) {
    const hits = index.search(query, { limit: 10 }).hits;
    hash.update(`${hits.map((hit) => `${hit.name}:${hit.score}`).join(",")}\n`);
    hash.update(`${index.rank(query, 40).join(",")}\n`);
  }
  const digest = hash.digest("hex").slice(0, 16);
  total.update(digest);
  console.log(`${String(size).padEnd(8)} ${digest}`);
}
console.log(`${"all".padEnd(8)} ${total.digest("hex").slice(0, 16)}`);
