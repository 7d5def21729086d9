import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { capture } from "../__tests__/capture.js";
import { loadMCP } from "../load-mcp.js";
import { runCli } from "../run-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

describe("toolsift dump", () => {
  it("writes each live server's tools/list as a catalog the search command reads", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-dump-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { fault: { command: "node", args: [faultServer] } } }),
    );
    const io = capture();
    expect(await runCli(["dump", "--config", config, "--out", path.join(dir, "out")], io)).toBe(0);
    expect(io.out).toContain("fault: 8 tools");
    const written = JSON.parse(await readFile(path.join(dir, "out/fault.json"), "utf8"));
    expect(written.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "cancelled",
      "crash",
      "echo",
      "grow",
      "hang",
      "log",
      "pid",
      "progress",
    ]);
    expect(written.tools.find((tool: { name: string }) => tool.name === "echo")).toMatchObject({
      title: "Echo",
      server: "fault",
      outputSchema: { type: "object" },
    });
    const search = capture();
    expect(
      await runCli(
        ["search", "echo the text", "--catalog", path.join(dir, "out"), "--json"],
        search,
      ),
    ).toBe(0);
    expect(JSON.parse(search.out).hits[0].name).toBe("echo");
  });

  it("exits 2 listing every problem of an invalid config with its path", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-dump-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ servers: { github: { command: 7 }, web: { url: "ftp://x" } } }),
    );
    const io = capture();
    expect(await runCli(["dump", "--config", config], io)).toBe(2);
    expect(io.err).toContain("servers.github.command: expected a string, got a number.");
    expect(io.err).toContain(
      'servers.web.url: expected an http:// or https:// address, got "ftp://x".',
    );
  });

  it("exits 1 when a server cannot start, naming the server and the command", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-dump-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ servers: { ghost: { command: "toolsift-no-such-binary" } } }),
    );
    const io = capture();
    expect(await runCli(["dump", "--config", config, "--out", dir], io)).toBe(1);
    expect(io.err).toMatch(
      /ghost: Server "ghost" could not start: command "toolsift-no-such-binary" was not found/,
    );
  });
});

describe("loadMCP", () => {
  it("names the install command when the MCP SDK is missing", async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@modelcontextprotocol/sdk' imported from x"),
      {
        code: "ERR_MODULE_NOT_FOUND",
      },
    );
    await expect(loadMCP(() => Promise.reject(missing))).rejects.toThrow(
      /npm install @modelcontextprotocol\/sdk@1.32.2/,
    );
  });

  it("names exactly the package that is missing: the SDK alone, or zod alone", async () => {
    const missing = (name: string) =>
      Object.assign(new Error(`Cannot find package '${name}' imported from x`), {
        code: "ERR_MODULE_NOT_FOUND",
      });
    const sdk = await loadMCP(() => Promise.reject(missing("@modelcontextprotocol/sdk"))).catch(
      (error: Error) => error.message,
    );
    expect(sdk).toMatch(/needs the optional package @modelcontextprotocol\/sdk,/);
    expect(sdk).not.toMatch(/\bzod\b/);
    expect(sdk).toMatch(/npm install @modelcontextprotocol\/sdk@1\.32\.2$/);
    const zod = await loadMCP(() => Promise.reject(missing("zod"))).catch(
      (error: Error) => error.message,
    );
    expect(zod).toMatch(/needs the optional package zod,/);
    expect(zod).toMatch(/npm install zod@4\.6\.7$/);
  });
});
