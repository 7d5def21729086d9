/**
 * A search names the servers it could not search because their start failed, in both modes that
 * offer search (bridge and reveal), and a call of a tool not found names them in every mode: a
 * model told nothing would report the capability missing.
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

/** A session of the gateway in `mode`, with a connected client. */
async function sessionClient(mode: "bridge" | "reveal" | "direct"): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createGatewaySession(mode, { sift, mode }).connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return client;
}
const textOf = (result: Record<string, unknown>) =>
  ((result.content ?? []) as { text: string }[]).map((block) => block.text).join("\n");

describe("a search while a server's start has failed", () => {
  it.each(["bridge", "reveal"] as const)("names it in %s mode", async (mode) => {
    const client = await sessionClient(mode);
    const found = await client.callTool({
      name: "tool_search",
      arguments: { queries: ["store a new entity"] },
    });
    const text = textOf(found);
    expect(text).toContain("memory__create_entities");
    expect(text).toContain('Could not start: "broken" (Server "broken" could not start: command');
    await client.close();
  });
});

describe("a call of a tool not found while a server's start has failed", () => {
  it.each([
    ["bridge", "tool_call", { name: "broken__run", arguments: {} }],
    ["direct", "broken__run", {}],
  ] as const)("names the server in %s mode", async (mode, name, args) => {
    const client = await sessionClient(mode);
    const called = await client.callTool({ name, arguments: args });
    expect(called.isError).toBe(true);
    const text = textOf(called);
    expect(text).toContain('Unknown tool "broken__run"');
    expect(text).toContain(
      'Could not start: "broken" (Server "broken" could not start: command "toolsift-test-no-such-command" was not found.',
    );
    expect(text).toContain("Their tools cannot be called until they start");
    // a call that ran and failed for its own reasons gains no note
    const failed = await client.callTool(
      mode === "bridge"
        ? { name: "tool_call", arguments: { name: "memory__open_nodes", arguments: { names: 3 } } }
        : { name: "memory__open_nodes", arguments: { names: 3 } },
    );
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).not.toContain("Could not start");
    await client.close();
  });
});
