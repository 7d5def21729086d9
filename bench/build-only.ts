/**
 * Diagnostic: times bulk builds of a synthetic index (wall and CPU time, and GC pauses), for
 * comparing build-path variants. Run with --expose-gc. argv: SIZE (default 100000) [ROUNDS (3)]
 */
import { PerformanceObserver } from "node:perf_hooks";
import type { ToolDefinition } from "../src/catalog/index.js";
import { ToolSearchIndex } from "../src/search/index.js";
import { syntheticTools } from "./synthetic.js";

const size = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const docs = JSON.parse(JSON.stringify(syntheticTools(size))) as ToolDefinition[];
let gcMs = 0;
let fullGcs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMs += entry.duration;
    // kind 4: mark-sweep-compact
    if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === 4) fullGcs += 1;
  }
});
observer.observe({ entryTypes: ["gc"] });
for (let round = 0; round < rounds; round += 1) {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gcMs = 0;
  fullGcs = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  let index: ToolSearchIndex | undefined = new ToolSearchIndex();
  index.addAll(docs);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await new Promise((resolve) => setTimeout(resolve, 10));
  console.log(
    `build ${wall.toFixed(0)} ms, cpu ${((used.user + used.system) / 1000).toFixed(0)} ms, gc ${gcMs.toFixed(0)} ms (${fullGcs} full), ${index.size} tools`,
  );
  index = undefined;
}
observer.disconnect();
