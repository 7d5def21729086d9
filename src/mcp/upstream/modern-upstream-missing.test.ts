import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const modern = path.join(root, "test/fixtures/mcp/modern-server.mjs");

describe("a modern-only upstream without the optional v2 client installed", () => {
  afterEach(() => {
    vi.doUnmock("@modelcontextprotocol/client");
    vi.resetModules();
  });

  it("is down with a message naming the server, the era and the install command", async () => {
    vi.resetModules();
    vi.doMock("@modelcontextprotocol/client", () => {
      throw new Error("Cannot find package '@modelcontextprotocol/client'");
    });
    const { createMCPToolSift } = await import("../create-mcp-toolsift.js");
    const servers = {
      modern: { command: process.execPath, args: [modern] },
      // known tools: the server starts on its first call, and that call says why it cannot
      lazy: {
        command: process.execPath,
        args: [modern],
        lazy: true,
        tools: [{ name: "echo", inputSchema: { type: "object" } }],
      },
    };
    const sift = await createMCPToolSift({ servers });
    try {
      const message =
        'Server "modern" speaks only MCP 2026-07-28 (the modern era, without the initialize handshake) and refused toolsift\'s 2025-11-25 client. Install the v2 MCP client next to toolsift (npm install @modelcontextprotocol/client@2.4.0) so toolsift can reach it, or run the server in a mode that also serves 2025-era clients.';
      expect(sift.upstreams.status()[0]).toEqual({
        server: "modern",
        state: "down",
        tools: 0,
        restarts: 0,
        error: message,
      });
      const result = await sift.upstreams.call("lazy__echo", { text: "x" });
      expect(result).toEqual({
        content: [{ type: "text", text: message.replace('"modern"', '"lazy"') }],
        isError: true,
      });
    } finally {
      await sift.close();
    }
  }, 30_000);
});
