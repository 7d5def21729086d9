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
  /** Timed passes over the 1,000 queries (fewer when a slow engine ran out of time budget). */
  passes: number;
  samples: number;
  p50: number;
  p95: number;
  /** Median over passes of each pass's p99. */
  p99: number;
  /** Every pass's p99. */
  passP99: number[];
  /** p99 of all samples pooled. */
  p99Pooled: number;
  /** p99 over queries of each query's median time across passes. */
  p99Query: number;
  max: number;
  gcCount: number;
  gcMs: number;
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
  console.log(
    "\n## Search speed (1,000 queries of 2-4 words, top 10, timed over up to 7 passes after a warm-up; ms)\n",
  );
  console.log(
    "p99 = median over passes of each pass's p99; p99/query = p99 of each query's median time; " +
      "pooled = p99 of all samples; max = slowest single sample (GC pauses and scheduler noise land here).\n",
  );
  console.log(
    "| engine | tools | build ms | heap MB | typed-array MB | passes | p50 | p95 | p99 | p99/query | pooled p99 | max | GC ms | vs MiniSearch (p50, p99) |",
  );
  console.log(
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const size of sizes) {
    const ours = measure("toolsift", size);
    const theirs = measure("minisearch", size);
    rows.push(ours, theirs);
    for (const row of [ours, theirs]) {
      const ratio =
        row === ours
          ? `${fixed(theirs.p50 / ours.p50, 1)}×, ${fixed(theirs.p99 / ours.p99, 1)}× faster`
          : "";
      console.log(
        `| ${row.engine} | ${row.tools.toLocaleString("en")} | ${fixed(row.buildMs, 0)} | ${fixed(row.heapMB, 1)} | ${fixed(row.externalMB, 1)} | ${row.passes} | ${fixed(row.p50)} | ${fixed(row.p95)} | ${fixed(row.p99)} | ${fixed(row.p99Query)} | ${fixed(row.p99Pooled)} | ${fixed(row.max, 1)} | ${fixed(row.gcMs, 0)} | ${ratio} |`,
      );
    }
  }
  return rows;
}
