/**
 * Truncation benchmark: cost of budgeting a 100 kB result (fits → bound-only path; too big →
 * cut) and truncation throughput on 1 MB results per strategy, against in-process baselines
 * (JSON.stringify of the same value, exact o200k counting, String.slice) so figures are ratios.
 * Run alone: `npx tsx bench/truncation.bench.ts`.
 */

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { applyResultBudget, truncateResult } from "../src/budget/index.js";
import type { TruncationStrategy } from "../src/catalog/index.js";
import { estimateO200kTokens, o200kCounter } from "../src/tokens/index.js";
import { sharedDir } from "../test/shared-dir.js";

function median(runs: number, work: () => unknown): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

function realData(bytes: number): { value: unknown[]; text: string } {
  const file = path.join(sharedDir(), "catalogs", "github-mcp-server.json");
  const tools = JSON.parse(readFileSync(file, "utf8")) as unknown[];
  const value: unknown[] = [];
  let size = 2;
  for (let index = 0; size < bytes; index++) {
    const item = tools[index % tools.length];
    value.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return { value, text: JSON.stringify(value) };
}

/** Runs the benchmark and returns its figures (ms, MB/s and ratios). */
export async function runTruncationBench(): Promise<Record<string, number>> {
  const small = realData(100_000);
  const large = realData(1_000_000);
  const prose = large.text.replace(/[{}[\]"]/g, " ");
  o200kCounter.count("warm up"); // load the encoding outside the timings
  const figures: Record<string, number> = {};
  const runs = 15;

  figures["100kB exact o200k count ms (baseline)"] = median(runs, () =>
    o200kCounter.count(small.text),
  );
  figures["100kB JSON.stringify ms (baseline)"] = median(runs, () => JSON.stringify(small.value));
  figures["100kB o200k upper bound ms"] = median(runs, () => estimateO200kTokens(small.text));
  figures["100kB fits (80k budget) ms"] = median(runs, () =>
    truncateResult(small.value, { maxTokens: 80_000 }),
  );
  figures["100kB over budget → smart 2k ms"] = median(runs, () =>
    truncateResult(small.value, { maxTokens: 2_000 }),
  );
  figures["100kB text over budget → head-tail 2k ms"] = median(runs, () =>
    truncateResult(small.text, { maxTokens: 2_000, strategy: "head-tail" }),
  );
  const applied = [] as number[];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await applyResultBudget(small.value, { tool: { name: "bench" }, perToolResult: 2_000 });
    applied.push(performance.now() - start);
  }
  figures["100kB applyResultBudget (2k) ms"] =
    applied.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0;

  const megabytes = large.text.length / 1e6;
  const stringifyMs = median(5, () => JSON.stringify(large.value));
  const sliceMs = median(5, () => `${prose.slice(0, 8_000)}${prose.slice(-8_000)}`.length);
  figures["1MB JSON.stringify MB/s (baseline)"] = megabytes / (stringifyMs / 1000);
  figures["1MB exact count MB/s (baseline)"] =
    megabytes / (median(3, () => o200kCounter.count(large.text)) / 1000);
  for (const strategy of ["smart", "head", "tail", "head-tail"] as TruncationStrategy[]) {
    const jsonMs = median(5, () => truncateResult(large.value, { maxTokens: 2_000, strategy }));
    figures[`1MB JSON ${strategy} MB/s`] = megabytes / (jsonMs / 1000);
    figures[`1MB JSON ${strategy} / stringify time`] = jsonMs / stringifyMs;
    if (strategy !== "smart") {
      const textMs = median(5, () => truncateResult(prose, { maxTokens: 2_000, strategy }));
      figures[`1MB text ${strategy} MB/s`] = megabytes / (textMs / 1000);
      figures[`1MB text ${strategy} / slice time`] = textMs / Math.max(sliceMs, 0.001);
    }
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await runTruncationBench();
  console.table(
    Object.entries(figures).map(([name, value]) => ({ name, value: Number(value.toFixed(3)) })),
  );
}
