/**
 * `toolsift serve` keeps its search index in the CLI's cache (issue 25): the first gateway builds
 * the index at its first search and writes it; a second gateway over the same servers reads it
 * at its first search instead of building. Two real gateway processes, driven by the SDK client.
 */
import { readdirSync, statSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { connectCliGateway } from "../../../test/cli-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

/** Starts a gateway, waits for the upstream's tools, runs one search; returns its stderr. */
async function searchOnce(config: string, cache: string): Promise<string> {
  const { client, stderr, announced } = await connectCliGateway(config, ["--cache", cache]);
  try {
    await expect.poll(announced, { timeout: 30_000 }).toBe(true);
    const result = await client.callTool({ name: "tool_search", arguments: { query: "echo" } });
    expect(JSON.stringify(result)).toContain("fault__echo");
  } finally {
    await client.close();
  }
  return stderr();
}

/** The index snapshots in the cache folder, with their inode and modification time. */
function snapshots(cache: string) {
  return readdirSync(cache)
    .filter((name) => name.startsWith("index-") && name.endsWith(".bin"))
    .map((name) => {
      const stat = statSync(path.join(cache, name));
      return { name, ino: stat.ino, mtimeMs: stat.mtimeMs };
    });
}

describe("toolsift serve and the index cache", () => {
  it("a second gateway over the same servers reads the index the first one wrote", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-cache-"));
    const config = path.join(dir, "gateway.json");
    const cache = path.join(dir, "cache");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { fault: { command: "node", args: [faultServer] } } }),
    );
    const firstLog = await searchOnce(config, cache);
    const written = snapshots(cache);
    expect(written).toHaveLength(1);
    // a read marks the file used (its time moves) but keeps it: a rewrite is a new file (rename)
    await new Promise((resolve) => setTimeout(resolve, 20));
    const secondLog = await searchOnce(config, cache);
    const [read] = snapshots(cache);
    expect(snapshots(cache)).toHaveLength(1);
    expect(read?.name).toBe(written[0]?.name);
    expect(read?.ino).toBe(written[0]?.ino);
    expect(read?.mtimeMs).toBeGreaterThan(written[0]?.mtimeMs as number);
    expect(`${firstLog}${secondLog}`).not.toMatch(/index cache|Saved search index not used/);
  }, 120_000);
});
