/**
 * An AI SDK agent over the 20 real MCP catalogs (1,371 tools) through `toolsift/ai-sdk`, with a
 * scripted model in place of a provider so it runs offline: the model searches, the tools it
 * finds become active in the next step, it calls one, and the result comes back within budget.
 * A policy keeps every delete tool out of reach. Run with `npx tsx examples/ai-sdk-agent.ts`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateText, stepCountIs } from "ai";
import { scriptedModel } from "../src/adapters/ai-sdk/__fixtures__/scripted-model.js";
import { createAISDKAdapter } from "../src/adapters/ai-sdk/index.js";
import { loadCatalogPaths } from "../src/catalog/node.js";
import { createToolSift } from "../src/index.js";
import { sharedDir } from "../test/shared-dir.js";

/** What one run shows: the tools offered per step, the calls made, and the final text. */
export interface AgentRun {
  catalogSize: number;
  offeredPerStep: number[];
  calls: { tool: string; input: unknown; outputChars: number }[];
  text: string;
}

export async function runAgentExample(
  catalogs = path.join(sharedDir(), "catalogs"),
): Promise<AgentRun> {
  const { tools } = await loadCatalogPaths([catalogs], { duplicates: "qualify" });
  const sift = createToolSift({
    // the catalogs are tools/list data without handlers: each answers with a long fake listing
    tools: tools.map((tool) => ({
      ...tool,
      handler: (args: Record<string, unknown>) =>
        Array.from({ length: 500 }, (_, row) => ({ row, tool: tool.name, args })),
    })),
    disclosure: { mode: "auto", contextWindow: 200_000 },
    policy: { rules: [{ label: "safety", deny: ["*delete*"] }] },
    budget: { perToolResult: 800, totalResults: 4_000 },
  });
  const adapter = await createAISDKAdapter({ sift });
  const session = adapter.session("example-chat");

  const { model, offered } = scriptedModel([
    () => ({ calls: [{ name: "tool_search", input: { query: "list pull requests github" } }] }),
    // the next step sees what the search revealed: call the first pull-request tool offered
    (options) => {
      const found = (options.tools ?? []).find((tool) => /pull_request/.test(tool.name));
      return found
        ? { calls: [{ name: found.name, input: { owner: "toolsift", repo: "toolsift" } }] }
        : { text: "No pull-request tool was found." };
    },
    () => ({ text: "Here are the open pull requests." }),
  ]);
  const result = await generateText({
    model,
    tools: session.tools,
    prepareStep: session.prepareStep,
    stopWhen: stepCountIs(6),
    prompt: "Which pull requests are open on toolsift/toolsift?",
  });
  return {
    catalogSize: sift.catalog.size,
    offeredPerStep: offered.map((names) => names.length),
    calls: result.steps.flatMap((step) =>
      step.toolResults.map((item) => ({
        tool: item.toolName,
        input: item.input,
        outputChars: String(item.output).length,
      })),
    ),
    text: result.text,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const run = await runAgentExample();
  console.log(`Catalog: ${run.catalogSize} tools.`);
  run.offeredPerStep.forEach((count, step) => {
    console.log(`Step ${step}: ${count} tools offered to the model.`);
  });
  for (const call of run.calls) {
    console.log(
      `Called ${call.tool}(${JSON.stringify(call.input)}): ${call.outputChars} characters back.`,
    );
  }
  console.log(`Answer: ${run.text}`);
}
