/**
 * The toolsift demo: load an example catalog (40 tools on five servers), keep a search index in
 * sync with it, and run every query form. Run with `npm run demo`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogFile } from "../src/catalog/node.js";
import {
  createCatalog,
  createSearchIndex,
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
