/**
 * `npm run bench -- inspector`: how long the inspector page takes to show the 1,371-tool catalog
 * in real Chromium, from navigation to the first screen drawn: the catalog summary, the cost chart
 * and the servers chart (issues 13 and 24: under 1 s).
 * The model is warmed first (as `toolsift inspect` does before printing its URL); each load is
 * a fresh page, medians of 6. Needs /usr/bin/chromium.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { loadTools } from "../src/cli/load.js";
import { createInspectorModel, startInspectorServer } from "../src/inspector/index.js";
import { CHROMIUM, launchChromium } from "../test/inspector/launch-chromium.js";
import { sharedDir } from "../test/shared-dir.js";

const RUNS = 6;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export async function runInspectorLoadBench(): Promise<void> {
  console.log("\n## Inspector page load (real catalogs, Chromium)\n");
  if (!existsSync(CHROMIUM)) {
    console.log(`skipped: needs ${CHROMIUM} (apt-get install chromium)`);
    return;
  }
  const quiet = { stdout() {}, stderr() {} };
  const tools = await loadTools({ catalog: [path.join(sharedDir(), "catalogs")] }, quiet);
  const model = createInspectorModel(tools);
  model.catalog();
  await model.cost();
  const server = await startInspectorServer({ model });
  const { browser, close } = await launchChromium();
  const loaded: number[] = [];
  const drawn: number[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(server.url, { waitUntil: "load" });
      loaded.push(performance.now() - started);
      await page.waitForFunction(
        () =>
          document.querySelector("#catalog-summary")?.textContent?.includes("1,371 tools") &&
          document.querySelectorAll("#catalog-chart svg > rect").length > 0 &&
          document.querySelectorAll("#cost-chart svg > rect").length > 0,
      );
      drawn.push(performance.now() - started);
      await page.close();
    }
  } finally {
    await close();
    await server.close();
  }
  console.log("| measure (median of 6, ms) | value |\n| --- | --- |");
  console.log(`| navigation to the load event | ${median(loaded).toFixed(0)} |`);
  console.log(
    `| navigation to the first screen drawn (summary, cost and server charts) | ${median(drawn).toFixed(0)} |`,
  );
}
