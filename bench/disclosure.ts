/**
 * Disclosure on the 20 real catalogs (1,371 tools): prepare latency cold / unchanged / after a
 * change, and search-response size at the default limit, all counted with o200k.
 */
import path from "node:path";
import { readQueries } from "../src/cli/load.js";
import { createToolSift } from "../src/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { loadRealCatalogs } from "./real-catalogs.js";

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Times prepare and measures search responses; prints two small tables. */
export async function runDisclosureBench(): Promise<Record<string, number>> {
  const tools = await loadRealCatalogs();
  const sift = createToolSift({ tools });
  const turn = { session: "bench", contextWindow: 200_000 };

  let started = performance.now();
  const plan = sift.prepare(turn);
  const coldMs = performance.now() - started;

  const unchanged: number[] = [];
  for (let round = 0; round < 2_000; round++) {
    started = performance.now();
    sift.prepare(turn);
    unchanged.push(performance.now() - started);
  }
  unchanged.sort((a, b) => a - b);

  const afterChange: number[] = [];
  for (let round = 0; round < 20; round++) {
    sift.catalog.replace({
      name: "bench_probe",
      description: `Probe tool, revision ${round}.`,
      inputSchema: { type: "object", properties: {} },
      server: "bench",
    });
    started = performance.now();
    const next = sift.prepare(turn);
    afterChange.push(performance.now() - started);
    if (!next.deferred.some((view) => view.name === "bench_probe")) {
      throw new Error("prepare after a change did not include the changed tool");
    }
  }
  afterChange.sort((a, b) => a - b);

  console.log("\n## Disclosure on 1,371 real tools (o200k)\n");
  console.log("| measure | value |");
  console.log("| --- | --- |");
  console.log(`| first prepare (cold: counts every definition) | ${coldMs.toFixed(1)} ms |`);
  console.log(
    `| unchanged prepare p50 / p99 | ${percentile(unchanged, 0.5).toFixed(4)} / ${percentile(unchanged, 0.99).toFixed(4)} ms |`,
  );
  console.log(
    `| prepare after one tool changed p50 / max | ${percentile(afterChange, 0.5).toFixed(2)} / ${(afterChange.at(-1) ?? 0).toFixed(2)} ms |`,
  );
  console.log(`| full definitions | ${plan.stats.allTokens.toLocaleString("en")} tokens |`);
  const firstTurn = plan.stats.loadedTokens + plan.stats.metaTokens;
  console.log(
    `| first turn (loaded + meta tools) | ${firstTurn.toLocaleString("en")} tokens (${((100 * firstTurn) / plan.stats.allTokens).toFixed(2)}%) |`,
  );

  // real requests from the mcp-pool benchmark as search input: the response size is what counts
  const queries = await readQueries(path.join(sharedDir(), "bench/mcp-pool/queries.jsonl"));
  const sizes: number[] = [];
  for (const query of queries) {
    const outcome = await sift.execute({
      session: `search-${query.id}`,
      name: sift.disclosure.metaToolNames.search,
      arguments: { queries: [query.query] },
    });
    const text = outcome.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n");
    sizes.push(sift.tokenCounter.count(text));
  }
  sizes.sort((a, b) => a - b);
  console.log(
    `| search response, default limit: median / p90 / max (${sizes.length} queries) | ${percentile(sizes, 0.5)} / ${percentile(sizes, 0.9)} / ${sizes.at(-1)} tokens |`,
  );
  return {
    coldMs,
    unchangedP50: percentile(unchanged, 0.5),
    unchangedP99: percentile(unchanged, 0.99),
    searchMedian: percentile(sizes, 0.5),
  };
}
