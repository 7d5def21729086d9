/**
 * The toolsift demo: load the 20 real MCP servers of `../shared/catalogs` (1,371 tools), search
 * them, plan an Anthropic turn (the provider's own tool search) and an OpenAI Chat turn (toolsift's
 * search tool), run one round trip per provider with the official SDK against a local mock server,
 * and print what the first turn costs with and without toolsift. Run with `npm run demo`.
 *
 * Each part is one function below, so a section can be added or run on its own.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  countDefinitionTokens,
  createToolSift,
  type SearchResult,
  type ToolDefinition,
  type ToolSift,
} from "../src/index.js";
import { loadCatalogPaths } from "../src/node.js";
import { roundTripGemini, roundTripOpenAIResponses } from "./demo-more-round-trips.js";
import { roundTripAnthropic, roundTripOpenAIChat } from "./demo-round-trips.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The real catalogs when `../shared` is beside the repository, else the 40-tool fixture. */
async function loadTools(): Promise<{ tools: ToolDefinition[]; source: string; real: boolean }> {
  // TOOLSIFT_SHARED names the shared folder; without it, look beside the repository
  const shared = process.env.TOOLSIFT_SHARED;
  const candidates = shared
    ? [path.join(shared, "catalogs")]
    : [
        path.join(here, "../../shared/catalogs"),
        path.join(here, "../../../shared/catalogs"), // a git worktree two levels down
      ];
  const real = candidates.find((candidate) => existsSync(candidate));
  if (real) {
    const { tools, files, renamed } = await loadCatalogPaths([real]);
    const shared = new Set(renamed.map((item) => item.from)).size;
    const note = `; ${shared} tool names exist on several servers, so those tools are called server/name`;
    return {
      tools,
      real: true,
      source: `${files.length} MCP servers in ${path.relative(process.cwd(), real)}${shared > 0 ? note : ""}`,
    };
  }
  console.log(
    "(../shared/catalogs is not beside the repository: using the 40-tool example catalog instead;\n set TOOLSIFT_SHARED to the shared folder to see the real servers.)\n",
  );
  const fixture = path.join(here, "../test/fixtures/catalogs/example-tools.json");
  const { tools } = await loadCatalogPaths([fixture], { trust: "host" });
  return { tools, source: "the example catalog", real: false };
}

function heading(text: string): void {
  console.log(`\n━━ ${text} ${"━".repeat(Math.max(0, 70 - text.length))}\n`);
}

function showSearch(sift: ToolSift, label: string, query: string): void {
  const result: SearchResult = sift.search(query, { limit: 4 });
  console.log(`${label}\n  “${query}”`);
  for (const hit of result.hits) {
    const about =
      hit.tool.description
        .trim()
        .split(/(?<=\.)\s|\n/)[0]
        ?.slice(0, 70) ?? "";
    console.log(`   → ${hit.name.padEnd(40)} ${about}`);
  }
  if (result.hits.length === 0)
    console.log(`   no match; closest: ${result.suggestions?.join(", ")}`);
  console.log();
}

function searchSection(sift: ToolSift, real: boolean): void {
  heading("1. Search: the model asks in its own words");
  showSearch(sift, "A short keyword query:", "create a github issue");
  showSearch(
    sift,
    "A request that needs two tools from two servers:",
    real
      ? "post the latest failed CircleCI pipeline to the team's Slack channel"
      : "save the query results to a file",
  );
  showSearch(sift, "A whole sentence from a user:", "take a screenshot of the checkout page");
  showSearch(
    sift,
    "Only one server's tools:",
    real ? "server:slack message" : "server:database table",
  );
}

function planSection(sift: ToolSift): void {
  heading("2. What the model sees in its first turn");
  const anthropic = sift.prepare({
    session: "plan-anthropic",
    provider: "anthropic",
    model: "claude-sonnet-4-6",
    contextWindow: 200_000,
  });
  console.log(
    `Anthropic (claude-sonnet-4-6): ${anthropic.mode} search — ${anthropic.searchReason}.\n` +
      `  ${anthropic.plan.deferred.length} tools are sent with defer_loading, so Claude's own tool search\n` +
      "  finds them; none of them takes room in the context until found. The system text names the servers:\n",
  );
  const directory = anthropic.system.split("\n\n").slice(1).join("\n\n");
  console.log(directory.replace(/^/gm, "    "));
  const openai = sift.prepare({
    session: "plan-openai",
    provider: "openai-chat",
    model: "gpt-4.1",
    contextWindow: 128_000,
  });
  console.log(
    `\nOpenAI Chat (gpt-4.1): ${openai.mode} search — the request carries ${openai.tools.length} tool(s): ` +
      `${[...openai.plan.metaTools, ...openai.plan.loaded].map((tool) => tool.name).join(", ")}.\n` +
      "  The model calls tool_search; the tools it finds are sent in full from its next turn on.\n" +
      `  (OpenAI Chat takes at most 128 tools per request; ${openai.plan.deferred.length} wait behind the search.)`,
  );
}

function savingsSection(sift: ToolSift): void {
  heading("4. Savings: tokens the tool definitions take in the first turn");
  const rows: [string, number, number][] = [];
  for (const [label, provider, model] of [
    ["Anthropic, native search", "anthropic", "claude-sonnet-4-6"],
    ["Anthropic, toolsift search", "anthropic", "claude-3-haiku-20240307"],
    ["OpenAI Chat", "openai-chat", "gpt-4.1"],
    ["OpenAI Responses", "openai-responses", "gpt-4.1"],
    ["Gemini", "gemini", "gemini-2.5-pro"],
  ] as const) {
    // the same function `toolsift report` and the inspector count with: one figure per provider
    const { all, turn } = countDefinitionTokens(sift, {
      session: `savings-${label}`,
      provider,
      model,
      contextWindow: 200_000,
    });
    rows.push([label, all, turn]);
  }
  console.log(
    `${"".padEnd(28)}${"every tool loaded".padStart(19)}${"with toolsift".padStart(15)}${"saved".padStart(9)}`,
  );
  for (const [label, all, first] of rows) {
    const saved = `${(100 * (1 - first / all)).toFixed(1)}%`;
    console.log(
      `${label.padEnd(28)}${all.toLocaleString("en").padStart(19)}${first.toLocaleString("en").padStart(15)}${saved.padStart(9)}`,
    );
  }
  console.log(
    "\n(tokens counted with the tokenizer of OpenAI's current models; other providers count within a few percent)",
  );
}

const started = performance.now();
const { tools, source, real } = await loadTools();
// MCP tools carry no handlers here: the round trips below answer every call through onCall
const sift = createToolSift({
  // the 40-tool fallback is below auto's threshold (10% of the window): defer it anyway to show how
  disclosure: { mode: real ? "auto" : "on" },
  tools,
  onWarning: (message) => console.log(`note: ${message.split(": ")[0]}.\n`),
  onCall: ({ tool, arguments: args }) => ({
    ok: true,
    note: `a real host would forward this to the ${tool.server ?? "tool's"} MCP server`,
    arguments: args,
  }),
});
console.log(`Loaded ${sift.catalog.size.toLocaleString("en")} tools from ${source}.`);
searchSection(sift, real);
planSection(sift);
heading("3. One round trip per provider (official SDKs, local mock server)");
await roundTripAnthropic(sift);
await roundTripOpenAIChat(sift);
console.log();
await roundTripOpenAIResponses(sift);
await roundTripGemini(sift);
savingsSection(sift);
console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
