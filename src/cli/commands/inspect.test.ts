import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { capture } from "../__tests__/capture.js";
import { runCli } from "../run-cli.js";
import { inspectCommand } from "./inspect.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "toolsift-inspect-"));
const good = path.join(dir, "tools.json");
writeFileSync(
  good,
  JSON.stringify({
    tools: [
      { name: "create_issue", description: "Create an issue.", inputSchema: { type: "object" } },
      { name: "read_file", description: "Read a file.", inputSchema: { type: "object" } },
    ],
  }),
);

describe("toolsift inspect", () => {
  it("exits 2 with the file named for a malformed catalog", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, '{"tools": [ {"name": "x", ');
    const io = capture();
    expect(await runCli(["inspect", "--catalog", bad], io)).toBe(2);
    expect(io.err).toContain("bad.json");
  });

  it("exits 2 for a bad port, and is listed in the help", async () => {
    const io = capture();
    expect(await runCli(["inspect", "--catalog", good, "--port", "70000"], io)).toBe(2);
    expect(io.err).toContain("--port must be a whole number");
    const help = capture();
    await runCli(["--help"], help);
    expect(help.out).toMatch(/inspect\s+a local web page/);
  });

  it("serves the page on loopback until stopped, then closes", async () => {
    const io = capture();
    const stop = new AbortController();
    const running = inspectCommand(["--catalog", good], io, stop.signal);
    await expect.poll(() => io.err, { timeout: 30_000 }).toMatch(/at http:\/\/127\.0\.0\.1:\d+\//);
    const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.err)?.[1] ?? "";
    const catalog = (await (await fetch(`${url}api/catalog`)).json()) as { total: number };
    expect(catalog.total).toBe(2);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("warns when --host is not loopback", async () => {
    const io = capture();
    const stop = new AbortController();
    stop.abort();
    expect(await inspectCommand(["--catalog", good, "--host", "0.0.0.0"], io, stop.signal)).toBe(0);
    expect(io.err).toContain("which is not loopback");
  });
});

describe("toolsift inspect --config", () => {
  it("refuses --config with --catalog or --host, saying why", async () => {
    const io = capture();
    expect(await runCli(["inspect", "--config", "x.json", "--catalog", good], io)).toBe(2);
    expect(io.err).toContain("not both");
    const host = capture();
    expect(await runCli(["inspect", "--config", "x.json", "--host", "0.0.0.0"], host)).toBe(2);
    expect(host.err).toContain("--host does not go with --config");
  });

  it("serves the gateway at /mcp on the inspector's port, and its sessions at /api/sessions", async () => {
    const config = path.join(dir, "gateway.json");
    writeFileSync(
      config,
      JSON.stringify({ servers: { fault: { command: "node", args: [faultServer] } } }),
    );
    const io = capture();
    const stop = new AbortController();
    const running = inspectCommand(["--config", config], io, stop.signal);
    await expect.poll(() => io.err, { timeout: 30_000 }).toMatch(/connect to http:.*\/mcp/);
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.err)?.[1] ?? "";
    const client = new Client({ name: "cli-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}mcp`)));
    await client.callTool({ name: "tool_call", arguments: { name: "fault__echo", arguments: {} } });
    const view = (await (await fetch(`${url}api/sessions`)).json()) as {
      attached: boolean;
      endpoint: string;
      servers: { server: string; state: string }[];
      sessions: { client: string; events: { tool: string; errorCode?: string }[] }[];
    };
    expect(view).toMatchObject({ attached: true, endpoint: `${url}mcp` });
    expect(view.servers).toEqual([expect.objectContaining({ server: "fault", state: "ready" })]);
    expect(view.sessions[0]).toMatchObject({
      client: "cli-test 1",
      events: [{ tool: "fault__echo", errorCode: "invalid_arguments" }],
    });
    // the gateway learns by default: its Learned view reads the gateway's own learning
    const learned = (await (await fetch(`${url}api/learned`)).json()) as { enabled: boolean };
    expect(learned.enabled).toBe(true);
    const total = async () =>
      ((await (await fetch(`${url}api/catalog`)).json()) as { total: number }).total;
    expect(await total()).toBe(8);
    // an upstream that adds a tool (tools/list_changed): the catalog view follows
    await client.callTool({ name: "tool_call", arguments: { name: "fault__grow", arguments: {} } });
    await expect.poll(total, { timeout: 10_000 }).toBe(9);
    await client.close();
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("--no-learning runs the gateway without learning, as serve --no-learning does", async () => {
    const config = path.join(dir, "gateway-no-learning.json");
    writeFileSync(
      config,
      JSON.stringify({ servers: { fault: { command: "node", args: [faultServer] } } }),
    );
    const state = mkdtempSync(path.join(tmpdir(), "toolsift-inspect-state-"));
    const io = capture({ env: { ...process.env, XDG_STATE_HOME: state } });
    const stop = new AbortController();
    const running = inspectCommand(["--config", config, "--no-learning"], io, stop.signal);
    await expect.poll(() => io.err, { timeout: 30_000 }).toMatch(/connect to http:.*\/mcp/);
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.err)?.[1] ?? "";
    const learned = (await (await fetch(`${url}api/learned`)).json()) as {
      enabled: boolean;
      message?: string;
    };
    expect(learned.enabled).toBe(false);
    expect(learned.message).toMatch(/Learning is off/);
    stop.abort();
    expect(await running).toBe(0);
    // nothing was read or written where learning keeps its file
    expect(readdirSync(state)).toEqual([]);
    const alone = capture();
    expect(await runCli(["inspect", "--catalog", good, "--no-learning"], alone)).toBe(2);
    expect(alone.err).toContain("--no-learning goes with --config");
  });
});
