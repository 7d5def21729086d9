/**
 * `toolsift serve` answers at once (issue 20, "Answer at once"): a client's `initialize` is
 * answered while an upstream is still starting, a bridge search meanwhile names the servers not
 * searched yet, and the upstream's tools are announced with `tools/list_changed` when it is up.
 * Through the real CLI over stdio, with the official SDK client.
 */
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const SLOW_START_MS = 20_000;

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((part) => part.text ?? "")
    .join("\n");

describe("toolsift serve answers at once", () => {
  it("answers initialize before a 20 s upstream is up, says so in a search, announces its tools when it is", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-start-"));
    const ready = path.join(dir, "upstream-ready");
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          // a bridge answers searches once it has tools: the quick server gives it some
          quick: { command: "node", args: [faultServer] },
          slow: {
            command: "node",
            args: [faultServer],
            env: { FAULT_START_DELAY_MS: String(SLOW_START_MS), FAULT_READY_FILE: ready },
          },
        },
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", path.join(root, "src/cli/main.ts"), "serve", "--config", config],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "start-test", version: "1" });
    let announced = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      announced += 1;
    });
    const began = performance.now();
    await client.connect(transport);
    const answeredMs = performance.now() - began;
    try {
      // the proof by order: the upstream had not even begun answering when initialize returned
      expect(existsSync(ready)).toBe(false);
      console.log(`initialize answered in ${answeredMs.toFixed(0)} ms (upstream start: 20 s)`);
      // the quick server is up first (its tools announced); the slow one is not
      await expect.poll(() => announced, { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
      const announcedBefore = announced;
      const early = await client.callTool({ name: "tool_search", arguments: { query: "echo" } });
      expect(textOf(early)).toContain('Not searched yet, still starting: "slow"');
      expect(existsSync(ready)).toBe(false);

      await expect
        .poll(() => existsSync(ready) && announced > announcedBefore, {
          timeout: 90_000,
          interval: 200,
        })
        .toBe(true);
      await expect
        .poll(
          async () =>
            textOf(await client.callTool({ name: "tool_search", arguments: { query: "echo" } })),
          { timeout: 30_000, interval: 500 },
        )
        .toContain("slow__echo");
      const late = await client.callTool({ name: "tool_search", arguments: { query: "echo" } });
      expect(textOf(late)).not.toContain("still starting");
      const echoed = await client.callTool({
        name: "tool_call",
        arguments: { name: "slow__echo", arguments: { text: "hi" } },
      });
      expect(textOf(echoed)).toContain("hi");
    } finally {
      await client.close();
    }
  }, 150_000);
});
