/**
 * What `toolsift/ai-sdk` adds to each agent step on the 20 real catalogs (1,371 tools): the
 * adapter's `prepareStep` against a bare one that returns a fixed `activeTools` list of the same
 * size, in the same run. The session has searched once, so revealed tools are part of the plan.
 */
import { createAISDKAdapter } from "../src/adapters/ai-sdk/index.js";
import { createToolSift } from "../src/index.js";
import { loadRealCatalogs } from "./real-catalogs.js";

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function time(rounds: number, step: (stepNumber: number) => unknown): number[] {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    step(1 + (round % 8));
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

/** Prints one table; returns the figures (milliseconds per step). */
export async function runAISDKPrepareStepBench(): Promise<Record<string, number>> {
  const tools = await loadRealCatalogs();
  const sift = createToolSift({ tools, disclosure: { mode: "auto", contextWindow: 200_000 } });
  const adapter = await createAISDKAdapter({ sift });
  const session = adapter.session("bench");
  session.prepareStep({ stepNumber: 0 });
  await sift.execute({
    session: "bench",
    name: "tool_search",
    arguments: { query: "create a pull request on github" },
  });
  const active = session.prepareStep({ stepNumber: 1 }).activeTools;
  const fixed = [...active];
  const bare = (_stepNumber: number) => ({ activeTools: fixed });

  const rounds = 5_000;
  // alternate the two so both see the same machine state; keep the last of three passes
  let bareSamples: number[] = [];
  let adapterSamples: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    bareSamples = time(rounds, bare);
    adapterSamples = time(rounds, (stepNumber) => session.prepareStep({ stepNumber }));
  }
  // a step right after the model found new tools: the plan is rebuilt (toolsift's own cost),
  // measured through the adapter and through sift.prepare alone, alternating reveal sets
  const names = sift.catalog.list().map((tool) => tool.name);
  const revealSteps = (run: () => unknown) =>
    time(300, (round) => {
      sift.disclosure.store.clear("bench");
      sift.disclosure.store.reveal("bench", names.slice(round * 5, round * 5 + 5));
      return run();
    });
  let planAfterReveal: number[] = [];
  let adapterAfterReveal: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    planAfterReveal = revealSteps(() => sift.prepare({ session: "bench" }));
    adapterAfterReveal = revealSteps(() => session.prepareStep({ stepNumber: 1 }));
  }
  const mean = (samples: number[]) =>
    samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const figures = {
    bareP50: percentile(bareSamples, 0.5),
    adapterP50: percentile(adapterSamples, 0.5),
    adapterP99: percentile(adapterSamples, 0.99),
    addedMean: mean(adapterSamples) - mean(bareSamples),
    planAfterRevealP50: percentile(planAfterReveal, 0.5),
    adapterAfterRevealP50: percentile(adapterAfterReveal, 0.5),
  };
  console.log("\n## AI SDK prepareStep on 1,371 real tools (per step, same run)\n");
  console.log("| measure | value |");
  console.log("| --- | --- |");
  console.log(`| active tools after one search | ${active.length} |`);
  console.log(`| bare prepareStep p50 | ${figures.bareP50.toFixed(4)} ms |`);
  console.log(
    `| adapter prepareStep p50 / p99 | ${figures.adapterP50.toFixed(4)} / ${figures.adapterP99.toFixed(4)} ms |`,
  );
  console.log(`| added per step (mean, adapter − bare) | ${figures.addedMean.toFixed(4)} ms |`);
  console.log(
    `| step after new reveals p50: sift.prepare alone / adapter | ${figures.planAfterRevealP50.toFixed(3)} / ${figures.adapterAfterRevealP50.toFixed(3)} ms |`,
  );
  return figures;
}
