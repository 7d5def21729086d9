/**
 * Three gateway replicas over one private Redis and the same real npm upstream
 * (server-everything), behind a round-robin proxy without stickiness: the official SDK client
 * must not notice which replica answers.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis, type TestRedis } from "../../../test/redis-server.js";
import { type RoundRobinProxy, startRoundRobinProxy } from "../../../test/round-robin-proxy.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "../serve/serve-gateway.js";
import { createRedisSessionStore } from "./redis-session-store.js";
import { createReplicaState } from "./replica-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const everything = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

interface Replica {
  gateway: RunningGateway;
}

let redis: TestRedis;
const replicas: Replica[] = [];
let proxy: RoundRobinProxy;
let proxyUrl: string;

async function startReplica(): Promise<Replica> {
  const store = await createRedisSessionStore({ url: redis.url, prefix: "e2e:" });
  const state = createReplicaState(store);
  const sift = await createMCPToolSift({
    servers: { everything: { command: process.execPath, args: [everything] } },
    disclosure: { store: state.reveals.revealStore },
    log: () => undefined,
  });
  const gateway = await serveHttp({ sift, mode: "reveal", state });
  const closeGateway = gateway.close;
  gateway.close = async () => {
    await closeGateway();
    await store.close();
  };
  return { gateway };
}

beforeAll(async () => {
  redis = await startTestRedis();
  for (let index = 0; index < 3; index += 1) replicas.push(await startReplica());
  proxy = await startRoundRobinProxy(() =>
    replicas.flatMap((replica) => replica.gateway.url ?? []),
  );
  proxyUrl = proxy.url;
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const replica of replicas) await replica.gateway.close().catch(() => undefined);
  await redis?.dispose();
}, 30_000);

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

describe("three replicas sharing Redis", () => {
  it("initializes on one replica, searches on another, calls the revealed tool on a third", async () => {
    const client = new Client({ name: "replica-test", version: "1" });
    const changed: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (note) => {
      changed.push(note);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl)));
    const served = (replica: Replica) => proxy.served.get(replica.gateway.url as string) ?? 0;
    const before = replicas.map(served);
    const found = await client.callTool({
      name: "tool_search",
      arguments: { queries: ["add two numbers"] },
    });
    expect(text(found)).toContain("everything__get-sum");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("everything__get-sum");
    const sum = await client.callTool({ name: "everything__get-sum", arguments: { a: 20, b: 22 } });
    expect(sum.isError).toBeFalsy();
    expect(text(sum)).toContain("42");
    // every replica answered part of the session
    expect(replicas.map((replica, index) => served(replica) > (before[index] ?? 0))).toEqual([
      true,
      true,
      true,
    ]);
    // reveal mode's list_changed reached the client's stream, wherever it is held
    await expect.poll(() => changed.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await client.close();
  }, 60_000);

  it("keeps a session going when a replica dies, and DELETE ends it everywhere", async () => {
    const client = new Client({ name: "replica-test", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(proxyUrl));
    await client.connect(transport);
    await client.callTool({ name: "tool_search", arguments: { queries: ["echo a message"] } });
    const dead = replicas.pop() as Replica;
    await dead.gateway.close();
    for (let turn = 0; turn < 4; turn += 1) {
      const echo = await client.callTool({
        name: "everything__echo",
        arguments: { message: `m${turn}` },
      });
      expect(text(echo)).toContain(`m${turn}`);
    }
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    for (const replica of replicas) {
      const answer = await fetch(replica.gateway.url as string, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(answer.status).toBe(404);
    }
    await client.close();
  }, 60_000);

  it("refuses new sessions while Redis is down, with a clear error, and resumes after", async () => {
    await redis.stop();
    const client = new Client({ name: "replica-test", version: "1" });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl))),
    ).rejects.toThrow(/session store .* is unreachable/);
    const probeUrl = (path: string) => new URL(path, replicas[0]?.gateway.url).toString();
    expect((await fetch(probeUrl("/healthz"))).status).toBe(200);
    const notReady = await fetch(probeUrl("/readyz"));
    expect(notReady.status).toBe(503);
    expect(JSON.stringify(await notReady.json())).toMatch(/session store .* is unreachable/);
    await redis.start();
    const again = new Client({ name: "replica-test", version: "1" });
    await expect
      .poll(
        async () =>
          again.connect(new StreamableHTTPClientTransport(new URL(proxyUrl))).then(
            () => true,
            () => false,
          ),
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect((await fetch(probeUrl("/readyz"))).status).toBe(200);
    const found = await again.callTool({
      name: "tool_search",
      arguments: { queries: ["add two numbers"] },
    });
    expect(text(found)).toContain("everything__get-sum");
    await again.close();
  }, 60_000);
});
