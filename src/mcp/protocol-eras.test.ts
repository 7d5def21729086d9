import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMCPToolSift } from "./create-mcp-toolsift.js";
import { serveHttp } from "./serve/serve-gateway.js";
import type { MCPLogEntry } from "./types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const modern = path.join(root, "test/fixtures/mcp/modern-server.mjs");
const legacy = path.join(root, "test/fixtures/mcp/conformance-server.mjs");

const text = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { text?: string }[])
    .map((block) => block.text ?? "")
    .join("");

describe("an upstream that speaks only MCP 2026-07-28", () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(process.execPath, [modern, "--http"], { stdio: ["pipe", "pipe", "inherit"] });
    url = await new Promise<string>((resolve) => {
      child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
    });
  });
  afterAll(() => {
    child.stdin?.end();
  });

  it("over stdio: connects through the v2 client, lists, calls, and answers its elicitation", async () => {
    const log: MCPLogEntry[] = [];
    const sift = await createMCPToolSift({
      servers: { modern: { command: process.execPath, args: [modern] } },
      log: (entry) => log.push(entry),
      onElicitation: () => ({ action: "accept", content: { note: "ok" } }),
    });
    try {
      expect(sift.upstreams.status()).toEqual([
        { server: "modern", state: "ready", tools: 4, restarts: 0 },
      ]);
      expect(log.map((entry) => entry.message)).toContain(
        "Speaks MCP 2026-07-28 only; connected with the v2 client.",
      );
      // the server's stderr reaches the log, as for a 2025 server
      expect(log).toContainEqual({
        level: "debug",
        server: "modern",
        message: "modern fixture listening on stdio",
      });
      expect(text(await sift.upstreams.call("modern__echo", { text: "hi" }))).toBe("echo: hi");
      // input_required → onElicitation → the call retried with the answer (defaults filled in)
      expect(text(await sift.upstreams.call("modern__confirm", {}))).toBe(
        'answer: {"action":"accept","content":{"proceed":true,"note":"ok"}}',
      );
      // a tool added later is announced on the subscriptions/listen stream and re-listed
      await sift.upstreams.call("modern__grow", {});
      await vi.waitFor(() => expect(sift.catalog.has("modern__extra")).toBe(true));
    } finally {
      await sift.close();
    }
  }, 30_000);

  it.each(["stdio", "http"])(
    "over %s behind the gateway: a 2025-era client calls, hears progress, is asked for input, reads",
    async (transport) => {
      const config = transport === "http" ? { url } : { command: process.execPath, args: [modern] };
      const sift = await createMCPToolSift({ servers: { modern: config } });
      const running = await serveHttp({ sift, mode: "direct" });
      const client = new Client(
        { name: "legacy-client", version: "1" },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler(ElicitRequestSchema, () => ({
        action: "accept",
        content: { proceed: false },
      }));
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual([
          "modern__confirm",
          "modern__echo",
          "modern__grow",
          "modern__slow",
        ]);
        const echoed = await client.callTool({
          name: "modern__echo",
          arguments: { text: "there" },
        });
        expect(text(echoed)).toBe("echo: there");
        // over stdio both reports arrive in the read that holds the result
        const progress: unknown[] = [];
        const slow = await client.callTool({ name: "modern__slow", arguments: {} }, undefined, {
          onprogress: (report) => progress.push(report),
        });
        expect([text(slow), progress]).toEqual([
          "done",
          [
            { progress: 1, total: 2 },
            { progress: 2, total: 2 },
          ],
        ]);
        // the server's input_required elicitation is relayed to this client, its answer kept as is
        const confirmed = await client.callTool({ name: "modern__confirm", arguments: {} });
        expect(text(confirmed)).toBe('answer: {"action":"accept","content":{"proceed":false}}');
        // resources and prompts pass through the v2 client too
        const read = await client.readResource({ uri: "modern://notes" });
        expect(read.contents).toEqual([
          { uri: "modern://notes", mimeType: "text/plain", text: "modern notes" },
        ]);
        const prompt = await client.getPrompt({
          name: "modern__greet",
          arguments: { name: "Ada" },
        });
        expect(prompt.messages).toEqual([
          { role: "user", content: { type: "text", text: "Hello, Ada." } },
        ]);
      } finally {
        await client.close();
        await running.close();
      }
    },
    30_000,
  );
});

describe("clients that ask for MCP 2026-07-28 from the gateway", () => {
  let running: Awaited<ReturnType<typeof serveHttp>>;
  beforeAll(async () => {
    const sift = await createMCPToolSift({
      naming: "bare",
      servers: { fixture: { command: process.execPath, args: [legacy] } },
    });
    running = await serveHttp({ sift, mode: "direct" });
  });
  afterAll(() => running.close());

  it("negotiates an initialize that asks for 2026-07-28 down to 2025-11-25", async () => {
    const response = await fetch(running.url as string, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2026-07-28",
          capabilities: {},
          clientInfo: { name: "modern", version: "1" },
        },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
  });

  it("serves a v2 client in auto mode on the legacy era", async () => {
    const client = new ModernClient(
      { name: "v2", version: "1" },
      {
        versionNegotiation: { mode: "auto" },
      },
    );
    await client.connect(new ModernHttp(new URL(running.url as string)));
    try {
      expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([
        "legacy",
        "2025-11-25",
      ]);
      const result = await client.callTool({ name: "test_simple_text", arguments: {} });
      expect(text(result)).toBe("This is a simple text response for testing.");
    } finally {
      await client.close();
    }
  });

  it("tells a client pinned to 2026-07-28 which versions it speaks (-32022)", async () => {
    const client = new ModernClient(
      { name: "v2", version: "1" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    const failure = await client.connect(new ModernHttp(new URL(running.url as string))).then(
      () => undefined,
      (error: { code?: unknown; message: string; data?: unknown }) => error,
    );
    expect(failure?.code).toBe(-32022);
    expect(failure?.message).toContain("the toolsift gateway speaks MCP 2025-11-25");
    expect(failure?.data).toMatchObject({ requested: "2026-07-28" });
  });
});

describe("clients that ask for MCP 2026-07-28 from toolsift serve over stdio", () => {
  it("serves an auto-mode v2 client on the legacy era and fails a pinned one at connect", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-eras-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({ servers: { fixture: { command: process.execPath, args: [legacy] } } }),
    );
    const serve = () =>
      new ModernStdio({
        command: process.execPath,
        args: ["--import", "tsx", path.join(root, "src/cli/main.ts"), "serve", "--config", config],
        cwd: root,
        stderr: "ignore",
      });
    const auto = new ModernClient(
      { name: "v2", version: "1" },
      {
        versionNegotiation: { mode: "auto", probe: { timeoutMs: 20_000 } },
      },
    );
    await auto.connect(serve());
    try {
      expect(auto.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const { tools } = await auto.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    } finally {
      await auto.close();
    }
    // the gateway's stdio server does not know server/discover: the pinned client says so
    const pinned = new ModernClient(
      { name: "v2", version: "1" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 20_000 } },
      },
    );
    const failure = await pinned.connect(serve()).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toContain("did not offer pinned protocol version 2026-07-28");
  }, 60_000);
});
