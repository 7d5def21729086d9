/**
 * `npm run bench`: every benchmark, printed as Markdown tables. Pass section names to run only
 * some: `npm run bench -- speed quality truncation hostile`.
 */
import { runAISDKPrepareStepBench } from "./ai-sdk-prepare-step.js";
import { runColdStartBench } from "./cold-start.js";
import { runDisclosureBench } from "./disclosure.js";
import { runGatewayBench } from "./gateway.js";
import { runGatewayReplicasBench } from "./gateway-replicas.js";
import { runHostileInputBench } from "./hostile-input.bench.js";
import { runInspectorLoadBench } from "./inspector-load.js";
import { runLearnedSpeedBench } from "./learned-speed.js";
import { runQualityBench } from "./quality.js";
import { runSearchSpeed } from "./search-speed.js";
import { runTruncationBench } from "./truncation.bench.js";

const sections: Record<string, () => unknown | Promise<unknown>> = {
  speed: () => runSearchSpeed(),
  learning: () => runLearnedSpeedBench(),
  quality: () => runQualityBench(),
  truncation: async () => {
    const figures = await runTruncationBench();
    console.log("\n## Result truncation (real catalog JSON as results; o200k)\n");
    console.log("| measure | value |\n| --- | --- |");
    for (const [name, value] of Object.entries(figures))
      console.log(`| ${name} | ${value.toFixed(2)} |`);
  },
  disclosure: () => runDisclosureBench(),
  hostile: async () => {
    const figures = await runHostileInputBench();
    console.log("\n## Hostile input (issue 15; o200k)\n");
    console.log("| measure | value |\n| --- | --- |");
    for (const [name, value] of Object.entries(figures))
      console.log(`| ${name} | ${value.toFixed(2)} |`);
  },
  "ai-sdk": () => runAISDKPrepareStepBench(),
  gateway: () => runGatewayBench(),
  "gateway-replicas": () => runGatewayReplicasBench(),
  inspector: () => runInspectorLoadBench(),
  "cold-start": () => runColdStartBench(),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in sections));
if (unknown.length > 0) {
  console.error(
    `Unknown bench section(s): ${unknown.join(", ")}. Known: ${Object.keys(sections).join(", ")}.`,
  );
  process.exit(2);
}
console.log(`# toolsift benchmarks (node ${process.version}, ${new Date().toISOString()})`);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
