/**
 * A search names the servers it could not search because their start failed, in both modes that
 * offer search (bridge and reveal): a model told nothing would report the capability missing.
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMCPToolSift, type MCPToolSift } from "../create-mcp-toolsift.js";
import { createGatewaySession } from "./gateway-session.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const memory = path.join(root, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

let sift: MCPToolSift;
beforeAll(async () => {
  sift = await createMCPToolSift({
    servers: {
      memory: {
        command: "node",
        args: [memory],
        // only searched, never written
        env: { MEMORY_FILE_PATH: path.join(tmpdir(), "toolsift-start-note-memory.jsonl") },
      },
      broken: { command: "toolsift-test-no-such-command" },
    },
    log: () => undefined,
  });
}, 60_000);
afterAll(() => sift.close());

describe("a search while a server's start has failed", () => {
  it.each(["bridge", "reveal"] as const)("names it in %s mode", async (mode) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createGatewaySession(mode, { sift, mode }).connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    const found = await client.callTool({
      name: "tool_search",
      arguments: { queries: ["store a new entity"] },
    });
    const text = (found.content as { text: string }[]).map((block) => block.text).join("\n");
    expect(text).toContain("memory__create_entities");
    expect(text).toContain('Could not start: "broken" (Server "broken" could not start: command');
    await client.close();
  });
});
