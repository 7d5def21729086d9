/**
 * The toolsift demo: load an example catalog (40 tools on five servers), keep a search index in
 * sync with it and run every query form; then plan a turn and run model calls through dispatch
 * (search → reveal → call, argument validation and repair, policy, suggestions).
 * Run with `npm run demo`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogFile } from "../src/catalog/node.js";
import {
  createCatalog,
  createSearchIndex,
  createToolSift,
  type SearchResult,
  syncSearchIndex,
} from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(here, "../test/fixtures/catalogs/example-tools.json");

const { tools } = await loadCatalogFile(file);
const catalog = createCatalog(tools);
const index = createSearchIndex();
syncSearchIndex(index, catalog);
console.log(
  `Loaded ${catalog.size} tools from ${path.basename(file)} (fingerprint ${catalog.fingerprint()}).\n`,
);

function show(label: string, result: SearchResult): void {
  console.log(`── ${label}: ${JSON.stringify(result.query)} (${result.kind})`);
  for (const hit of result.hits) {
    const score = result.kind === "keyword" ? ` ${hit.score.toFixed(2)}` : "";
    console.log(
      `   ${hit.name.padEnd(28)}${score.padEnd(7)} ${hit.tool.description.split(". ")[0]}`,
    );
  }
  if (result.missing?.length) console.log(`   missing: ${result.missing.join(", ")}`);
  if (result.hits.length === 0) {
    console.log(`   no match; closest names: ${result.suggestions?.join(", ") ?? "none"}`);
    console.log(
      `   servers: ${result.servers?.map((entry) => `${entry.server} (${entry.tools})`).join(", ")}`,
    );
  }
  console.log();
}

show("a model's keyword query", index.search("github issue create"));
show(
  "a raw user request",
  index.search("Can you please put a meeting with Ana on my calendar for Friday?"),
);
show("exact fetch", index.search("select:read-file,runQuery,no_such_tool"));
show("required and excluded terms", index.search("+pull -merge request"));
show("server filter", index.search("server:database table"));
show("regex mode (linear time)", index.search("/^browser\\.(click|type)$/"));
show("no match: suggestions instead of a dead end", index.search("crete_isue"));

const explained = index.search("take a screenshot of the page", { limit: 1, explain: true });
console.log(`── why ${explained.hits[0]?.name} ranks first:`);
for (const part of explained.hits[0]?.explanation ?? []) {
  console.log(`   ${part.term.padEnd(12)} in ${part.field.padEnd(18)} +${part.score.toFixed(2)}`);
}

// the index follows the catalog: a new tool is searchable at once, a removed one is gone
catalog.add({
  name: "send_slack_message",
  description: "Send a message to a Slack channel.",
  inputSchema: {
    type: "object",
    properties: { channel: { type: "string" }, text: { type: "string" } },
  },
  server: "slack",
});
catalog.remove("browser.evaluate");
console.log();
show("after adding a Slack tool", index.search("notify the team on slack", { limit: 2 }));

// ── disclosure and dispatch: what the model sees, and what happens when it calls ──
console.log("\n════ disclosure and dispatch ════\n");
const withHandlers = tools.map((tool) => ({
  ...tool,
  handler: (args: Record<string, unknown>) => ({ ok: true, tool: tool.name, received: args }),
}));
const sift = createToolSift({
  tools: [
    ...withHandlers,
    {
      name: "think",
      description: "Write down a thought before acting.",
      inputSchema: {
        type: "object",
        properties: { thought: { type: "string" } },
        required: ["thought"],
      },
      handler: () => "noted",
    },
  ],
  // "on" defers every MCP tool even for a catalog this small ("auto" waits for 10% of the window)
  disclosure: { mode: "on", strategy: "reveal" },
  policy: { rules: [{ label: "safety", deny: ["*delete*"] }] },
  budget: { perToolResult: 200 },
});
const turn = sift.prepare({ session: "demo", contextWindow: 200_000 });
console.log(`turn 1: ${turn.reason}`);
console.log(`  loaded: ${turn.loaded.map((tool) => tool.name).join(", ")}`);
console.log(`  meta tools: ${turn.metaTools.map((tool) => tool.name).join(", ")}`);
console.log(
  `  deferred: ${turn.deferred.length} tools; ${turn.stats.loadedTokens + turn.stats.metaTokens} of ${turn.stats.allTokens} definition tokens sent (o200k)`,
);

const call = async (name: string, args: unknown) => {
  const outcome = await sift.execute({ session: "demo", name, arguments: args });
  const text = outcome.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join(" ");
  console.log(`\n→ ${name}(${JSON.stringify(args)})${outcome.isError ? "  [error]" : ""}`);
  console.log(`  ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`.replaceAll("\n", "\n  "));
  if (outcome.repairs.length) console.log(`  repaired: ${outcome.repairs.join("; ")}`);
  return outcome;
};
await call("tool_search", { queries: ["schedule a meeting"] });
console.log(
  `\nturn 2 loads: ${sift
    .prepare({ session: "demo", contextWindow: 200_000 })
    .loaded.map((tool) => tool.name)
    .join(", ")}`,
);
await call("API-create-event", { summary: "Sync with Ana" });
await call(
  "API-create-event",
  '{"calendarId": "primary", "summary": "Sync with Ana", "start": "2026-11-27T10:00:00Z", "end": "2026-11-27T10:30:00Z"}',
);
await call("API-delete-event", { eventId: "42" });
await call("creat_issue", { title: "x" });
console.log(`\nwhy is API-delete-event unavailable? ${sift.explain("API-delete-event").reason}`);
