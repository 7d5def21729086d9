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
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { cliGatewayTransport } from "../../../test/cli-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const SLOW_START_MS = 20_000;

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((part) => part.text ?? "")
    .join("\n");

/** A config beside a ready-file path: `slow` (the fault server, up after `delayMs`) plus `others`. */
async function slowConfig(delayMs: number, others: Record<string, unknown>) {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-start-"));
  const ready = path.join(dir, "upstream-ready");
  const config = path.join(dir, "gateway.json");
  const slow = {
    command: "node",
    args: [faultServer],
    env: { FAULT_START_DELAY_MS: String(delayMs), FAULT_READY_FILE: ready },
  };
  await writeFile(config, JSON.stringify({ mcpServers: { ...others, slow } }));
  return { dir, ready, config };
}

describe("toolsift serve answers at once", () => {
  it("answers initialize before a 20 s upstream is up, says so in a search, announces its tools when it is", async () => {
    // the quick server is up long before the slow one
    const { ready, config } = await slowConfig(SLOW_START_MS, {
      quick: { command: "node", args: [faultServer] },
    });
    const transport = cliGatewayTransport(config);
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

  it("offers the meta tools before any server is up; a search names the starting servers and why one failed", async () => {
    // no server is quick: every tool is still to come when the client lists; 8 s is long
    // enough to list and search before the slow one is up, short enough for the suite
    const { ready, config } = await slowConfig(8_000, {
      broken: { command: path.join(tmpdir(), "toolsift-no-such-command") },
    });
    const transport = cliGatewayTransport(config);
    const client = new Client({ name: "start-none-test", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      // answered while the only working upstream had not begun answering
      expect(existsSync(ready)).toBe(false);
      expect(tools.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
      // the broken server fails at once; the slow one is still starting
      await expect
        .poll(
          async () =>
            textOf(await client.callTool({ name: "tool_search", arguments: { query: "echo" } })),
          { timeout: 15_000, interval: 200 },
        )
        .toContain('Could not start: "broken"');
      const early = textOf(
        await client.callTool({ name: "tool_search", arguments: { query: "echo" } }),
      );
      expect(existsSync(ready)).toBe(false);
      expect(early).toContain('Not searched yet, still starting: "slow"');
      expect(early).toMatch(/"broken" \(.*not found|ENOENT/);
      // once up, the slow server's tools are found
      await expect
        .poll(
          async () =>
            textOf(await client.callTool({ name: "tool_search", arguments: { query: "echo" } })),
          { timeout: 90_000, interval: 500 },
        )
        .toContain("slow__echo");
    } finally {
      await client.close();
    }
  }, 150_000);
});
