import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { cliGatewayTransport } from "../../../test/cli-gateway.js";
import type { GatewayMode } from "../config/gateway-config.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "./serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const bin = (pkg: string) =>
  path.join(root, "node_modules/@modelcontextprotocol", pkg, "dist/index.js");

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

async function gateway(mode: GatewayMode, token?: string): Promise<RunningGateway> {
  const sift = await createMCPToolSift({
    servers: { fault: { command: "node", args: [faultServer] } },
  });
  const running = await serveHttp({ sift, mode, ...(token ? { token } : {}) });
  cleanup.push(() => running.close());
  return running;
}

async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  cleanup.push(() => client.close());
  return client;
}

describe("toolsift serve over streamable HTTP", () => {
  it("direct mode aggregates every tool with its title, output schema and structured results", async () => {
    const running = await gateway("direct");
    const client = await httpClient(running.url as string);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "fault__cancelled",
      "fault__crash",
      "fault__echo",
      "fault__grow",
      "fault__hang",
      "fault__log",
      "fault__pid",
      "fault__progress",
    ]);
    const echo = tools.find((tool) => tool.name === "fault__echo");
    expect(echo).toMatchObject({
      title: "Echo",
      annotations: { readOnlyHint: true },
      outputSchema: { type: "object" },
    });
    const result = await client.callTool({ name: "fault__echo", arguments: { text: "hi" } });
    expect(result.structuredContent).toEqual({ echoed: "hi" });
  });

  it("passes the upstream's progress notifications to the client that asked", async () => {
    const running = await gateway("direct");
    const client = await httpClient(running.url as string);
    const reports: string[] = [];
    const result = await client.callTool({ name: "fault__progress", arguments: {} }, undefined, {
      onprogress: (progress) =>
        reports.push(`${progress.progress}/${progress.total} ${progress.message}`),
    });
    expect(text(result)).toBe("done");
    expect(reports).toEqual(["1/3 step 1", "2/3 step 2", "3/3 step 3"]);
  });

  it("passes a client's cancellation to the upstream", async () => {
    const running = await gateway("direct");
    const client = await httpClient(running.url as string);
    const controller = new AbortController();
    const pending = client.callTool({ name: "fault__hang", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    // time for the call to reach the upstream even on a loaded machine, so there is a call to cancel
    setTimeout(() => controller.abort(), 1_000);
    await expect(pending).rejects.toThrow(/abort/i);
    await expect
      .poll(async () => text(await client.callTool({ name: "fault__cancelled", arguments: {} })), {
        timeout: 10_000,
      })
      .toBe("1");
  });

  it("passes upstream log messages to the client, at the level the client set", async () => {
    const running = await gateway("direct");
    const client = await httpClient(running.url as string);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      logs.push(`${level} ${logger}: ${String(data)}`);
    });
    await client.callTool({ name: "fault__log", arguments: {} });
    await expect.poll(() => logs).toEqual(["warning fault/disk: disk almost full"]);
    await client.setLoggingLevel("error");
    await client.callTool({ name: "fault__log", arguments: {} });
    await client.callTool({ name: "fault__echo", arguments: { text: "after" } });
    expect(logs).toHaveLength(1);
  });

  it("reveal mode announces list_changed to the session that searched, and only to it", async () => {
    const running = await gateway("reveal");
    const first = await httpClient(running.url as string);
    const second = await httpClient(running.url as string);
    let changed = 0;
    first.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    const before = (await first.listTools()).tools.map((tool) => tool.name);
    expect(before).not.toContain("fault__echo");
    const found = await first.callTool({
      name: before[0] as string,
      arguments: { queries: ["echo the text back"] },
    });
    expect(text(found)).toContain("fault__echo");
    await expect.poll(() => changed).toBeGreaterThan(0);
    expect((await first.listTools()).tools.map((tool) => tool.name)).toContain("fault__echo");
    expect((await second.listTools()).tools.map((tool) => tool.name)).not.toContain("fault__echo");
    expect(text(await first.callTool({ name: "fault__echo", arguments: { text: "native" } }))).toBe(
      "native",
    );
  });

  it("refuses a missing token, a foreign Host and a foreign Origin", async () => {
    const running = await gateway("bridge", "s3cret");
    const url = running.url as string;
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    };
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    expect((await post({})).status).toBe(401);
    expect(
      (await post({ authorization: "Bearer s3cret", origin: "https://evil.example" })).status,
    ).toBe(403);
    const port = new URL(url).port;
    const rebinding = await new Promise<number>((resolve, reject) => {
      // fetch cannot override Host, so speak HTTP by hand
      import("node:http").then(({ request }) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            headers: { host: `evil.example:${port}`, authorization: "Bearer s3cret" },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      }, reject);
    });
    expect(rebinding).toBe(403);
    const client = await httpClient(url, { authorization: "Bearer s3cret" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("tool_call");
  });
});

describe("toolsift serve over stdio (the CLI)", () => {
  it("bridges search and call to real npm servers, and exits with its client", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-serve-"));
    const config = path.join(dir, "gateway.json");
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: "node", args: [bin("server-everything")] },
          memory: {
            command: "node",
            args: [bin("server-memory")],
            env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") },
          },
        },
      }),
    );
    const transport = cliGatewayTransport(config, ["--log-level", "error"]);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    const pid = transport.pid as number;
    cleanup.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    // serve answers at once: a server still starting is named in the search until it is up
    await expect
      .poll(
        async () =>
          text(
            await client.callTool({
              name: "tool_search",
              arguments: { queries: ["add two numbers"] },
            }),
          ),
        { timeout: 60_000, interval: 250 },
      )
      .toContain("everything__get-sum");
    const sum = await client.callTool({
      name: "tool_call",
      arguments: { name: "everything__get-sum", arguments: { a: 20, b: 22 } },
    });
    expect(text(sum)).toContain("42");
    const entity = await client.callTool({
      name: "tool_call",
      arguments: {
        name: "memory__create_entities",
        arguments: {
          entities: [{ name: "toolsift", entityType: "project", observations: ["gateway"] }],
        },
      },
    });
    expect(entity.isError).toBeFalsy();
    await client.close();
    await expect
      .poll(
        () => {
          try {
            process.kill(pid, 0);
            return true;
          } catch {
            return false;
          }
        },
        { timeout: 10_000 },
      )
      .toBe(false);
  });
});
