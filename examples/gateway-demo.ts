/**
 * The gateway demo: starts `toolsift serve`'s HTTP gateway in reveal mode over three real MCP
 * servers (everything, memory, filesystem — the devDependencies), connects the MCP SDK's own
 * client, and shows search → reveal (tools/list_changed) → native call, with the token cost of
 * the client's tools/list against plain aggregation. Run with `npm run demo:gateway`.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMCPToolSift, serveHttp } from "../src/mcp/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (pkg: string) =>
  path.join(root, "node_modules/@modelcontextprotocol", pkg, "dist/index.js");
const work = await mkdtemp(path.join(tmpdir(), "toolsift-gateway-demo-"));

const sift = await createMCPToolSift({
  servers: {
    everything: { command: "node", args: [bin("server-everything")] },
    memory: {
      command: "node",
      args: [bin("server-memory")],
      env: { MEMORY_FILE_PATH: path.join(work, "memory.jsonl") },
    },
    filesystem: { command: "node", args: [bin("server-filesystem"), work] },
  },
});
const gateway = await serveHttp({ sift, mode: "reveal" });
console.log(
  `Gateway at ${gateway.url}: ${sift.catalog.size} tools from ${sift.upstreams.status().length} servers.`,
);

const client = new Client({ name: "demo", version: "1.0.0" });
let announcements = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  announcements += 1;
});
await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url as string)));

const tokens = (value: unknown) => sift.tokenCounter.count(JSON.stringify(value));
const allTools = sift.catalog.list().map((tool) => sift.upstreams.upstreamTool(tool.name) ?? tool);
const listed = await client.listTools();
const fullCost = tokens(allTools);
const gatewayCost = tokens(listed.tools);
console.log(
  `\ntools/list: ${listed.tools.map((tool) => tool.name).join(", ")}` +
    `\n  ${gatewayCost} tokens instead of ${fullCost} for all ${allTools.length} tools (${Math.round((1 - gatewayCost / fullCost) * 100)}% less).`,
);

const search = await client.callTool({
  name: "tool_search",
  arguments: { queries: ["write a file", "store a new entity"] },
});
console.log(`\ntool_search → ${(search.content as { text: string }[])[0]?.text.slice(0, 400)}…`);
await new Promise((resolve) => setTimeout(resolve, 50));
const revealed = (await client.listTools()).tools.map((tool) => tool.name);
console.log(
  `\nlist_changed announcements: ${announcements}; tools/list now: ${revealed.join(", ")}`,
);

const write = await client.callTool({
  name: "filesystem__write_file",
  arguments: { path: path.join(work, "hello.txt"), content: "written through the gateway" },
});
console.log(`\nfilesystem__write_file → ${JSON.stringify(write.content)}`);
const afterCost = tokens((await client.listTools()).tools);
console.log(`\ntools/list after the reveal: ${afterCost} tokens (all tools: ${fullCost}).`);

await client.close();
await gateway.close();
console.log("\nClosed the client, the gateway and its upstream servers.");
