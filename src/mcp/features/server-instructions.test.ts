import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateCounter } from "../../tokens/index.js";
import type { GatewayMode } from "../config/gateway-config.js";
import { createMCPToolSift, type MCPToolSift } from "../create-mcp-toolsift.js";
import { createGatewaySession } from "../serve/gateway-session.js";
import { gatewayInstructions } from "./server-instructions.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const everything = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("\n");

describe("upstream instructions through the gateway (server-everything sends some)", () => {
  let sift: MCPToolSift;
  let upstream: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    sift = await createMCPToolSift({
      servers: { everything: { command: "node", args: [everything] } },
    });
    upstream = sift.upstreams.server("everything")?.client()?.getInstructions() ?? "";
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sift?.close();
  });
  const connect = async (mode: GatewayMode) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createGatewaySession(mode, { sift, mode }).connect(serverSide);
    const client = new Client({ name: mode, version: "1" });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };

  it("direct mode: the gateway's instructions carry each server's, under its name", async () => {
    expect(upstream.length).toBeGreaterThan(100);
    const instructions = (await connect("direct")).getInstructions() ?? "";
    expect(instructions).toContain('## Server "everything"');
    expect(instructions).toContain(upstream.trim().slice(0, 80));
  });

  it("bridge mode: tool_describe of a server's tool carries its instructions, once per session", async () => {
    const client = await connect("bridge");
    expect(client.getInstructions()).not.toContain(upstream.trim().slice(0, 80));
    const first = await client.callTool({
      name: "tool_describe",
      arguments: { names: ["everything__get-sum"] },
    });
    expect(text(first)).toContain('Instructions of server "everything"');
    expect(text(first)).toContain(upstream.trim().slice(0, 80));
    const again = await client.callTool({
      name: "tool_describe",
      arguments: { names: ["everything__echo"] },
    });
    expect(text(again)).not.toContain('Instructions of server "everything"');
  });
});

describe("gatewayInstructions", () => {
  it("keeps the whole within its token budget, each server's share cut and marked", () => {
    const long = "Use the tools carefully. ".repeat(400);
    const composed = gatewayInstructions(
      [
        { server: "a", text: long },
        { server: "b", text: "Short." },
      ],
      (value) => estimateCounter.count(value),
      300,
    );
    expect(estimateCounter.count(composed ?? "")).toBeLessThanOrEqual(300);
    expect(composed).toContain('## Server "a"');
    expect(composed).toContain('## Server "b"\nShort.');
    expect(composed).toContain("(cut to fit");
    expect(gatewayInstructions([], (value) => value.length, 300)).toBeUndefined();
  });
});
