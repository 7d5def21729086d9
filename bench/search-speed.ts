/** Search speed: toolsift vs MiniSearch, each engine × size in its own process. */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), "search-speed-worker.ts");

export interface SpeedRow {
  engine: string;
  size: string;
  tools: number;
  buildMs: number;
  heapMB: number;
  externalMB: number;
  p50: number;
  p95: number;
  p99: number;
}

function measure(engine: string, size: string): SpeedRow {
  const output = execFileSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", worker, engine, size],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(output.trim().split("\n").pop() ?? "{}") as SpeedRow;
}

const fixed = (value: number, digits = 3) => value.toFixed(digits);

/** Runs every engine × size and prints a table with toolsift/MiniSearch latency ratios. */
export function runSearchSpeed(
  sizes: readonly string[] = ["1000", "10000", "100000", "real"],
): SpeedRow[] {
  const rows: SpeedRow[] = [];
  console.log("\n## Search speed (1,000 queries of 2-4 words, top 10; ms)\n");
  console.log(
    "| engine | tools | build ms | heap MB | typed-array MB | p50 | p95 | p99 | p99 vs MiniSearch |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const size of sizes) {
    const ours = measure("toolsift", size);
    const theirs = measure("minisearch", size);
    rows.push(ours, theirs);
    for (const row of [ours, theirs]) {
      const ratio = row === ours ? `${fixed(theirs.p99 / ours.p99, 1)}× faster` : "";
      console.log(
        `| ${row.engine} | ${row.tools.toLocaleString("en")} | ${fixed(row.buildMs, 0)} | ${fixed(row.heapMB, 1)} | ${fixed(row.externalMB, 1)} | ${fixed(row.p50)} | ${fixed(row.p95)} | ${fixed(row.p99)} | ${ratio} |`,
      );
    }
  }
  return rows;
}
