/**
 * Diagnostic: builds a synthetic index and prints how much heap and array-buffer memory each part
 * of it retains (by dropping the part and collecting). Run with --expose-gc.
 * argv: SIZE (default 100000)
 */
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";
import { syntheticTools } from "./synthetic.js";

const size = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const docs = JSON.parse(JSON.stringify(syntheticTools(size))) as ToolDefinition[];
async function settled(): Promise<NodeJS.MemoryUsage> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  return process.memoryUsage();
}
const before = await settled();
const cpu = process.cpuUsage();
const started = performance.now();
const index = new ToolSearchIndex();
index.addAll(docs);
const wall = performance.now() - started;
const used = process.cpuUsage(cpu);
let last = await settled();
const mb = (value: number) => (value / 2 ** 20).toFixed(1);
console.log(
  `build ${wall.toFixed(0)} ms (cpu ${((used.user + used.system) / 1000).toFixed(0)} ms) heap ${mb(last.heapUsed - before.heapUsed)} external ${mb(last.arrayBuffers - before.arrayBuffers)}`,
);
// drop parts one by one (the index is unusable afterwards)
const target = (index as unknown as Record<string, unknown>).indexed as Record<string, unknown>;
const keyword = (index as unknown as Record<string, unknown>).keyword as Record<string, unknown>;
const store = target.store as Record<string, unknown>;
const parts: [Record<string, unknown>, string][] = [
  [target, "lookup"],
  [target, "nameMasks"],
  [keyword, "prerequisites"],
  [target, "encoder"],
  [store, "byText"],
  [store, "byStem"],
  [store, "otherStems"],
  [store, "prefixBuckets"],
  [store, "namedByLength"],
  [store, "namedNumbersByLength"],
  [store, "postings"],
  [store, "postingLength"],
  [store, "docFrequency"],
  [store, "nameFrequency"],
  [store, "terms"],
  [store, "fieldLength"],
  [store, "fieldNorm"],
  [store, "saturated"],
  [target, "store"],
  [target, "tools"],
];
for (const [owner, key] of parts) {
  owner[key] = undefined;
  const now = await settled();
  console.log(
    `${key.padEnd(22)} heap ${mb(last.heapUsed - now.heapUsed).padStart(6)}  external ${mb(last.arrayBuffers - now.arrayBuffers).padStart(6)}`,
  );
  last = now;
}
