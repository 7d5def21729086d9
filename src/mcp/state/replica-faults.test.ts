/**
 * Replicas under faults and relays: sampling and elicitation asked by an upstream during a call
 * on one replica reach the calling client (on that call's response stream), whose answers posted
 * to the other replica are passed back over the bus to the right session; and a
 * replica that stops with a call in flight answers that call with an error instead of leaving the
 * client waiting, while the session goes on with the other replica.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis, type TestRedis } from "../../../test/redis-server.js";
import { type RoundRobinProxy, startRoundRobinProxy } from "../../../test/round-robin-proxy.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "../serve/serve-gateway.js";
import { createRedisSessionStore } from "./redis-session-store.js";
import { createReplicaState } from "./replica-gateway.js";
import type { StateMessage } from "./session-store.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const relayServer = path.join(root, "test/fixtures/mcp/relay-server.mjs");

/** Runs until its call is aborted (the replica stopping aborts it). */
const waitTool: ToolDefinition = {
  name: "wait_forever",
  description: "Waits until the call is cancelled.",
  inputSchema: { type: "object" },
  handler: (_args, context) =>
    new Promise((_resolve, reject) => {
      context.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    }),
};

interface Replica {
  gateway: RunningGateway;
  /** Messages this replica published on the bus. */
  published: StateMessage[];
}

let redis: TestRedis;
const replicas: Replica[] = [];
let proxy: RoundRobinProxy;

async function startReplica(): Promise<Replica> {
  const store = await createRedisSessionStore({ url: redis.url, prefix: "faults:" });
  const published: StateMessage[] = [];
  const publish = store.publish.bind(store);
  store.publish = (message) => {
    published.push(message);
    return publish(message);
  };
  const state = createReplicaState(store);
  const sift = await createMCPToolSift({
    servers: { relay: { command: process.execPath, args: [relayServer] } },
    tools: [waitTool],
    disclosure: { store: state.reveals.revealStore },
    log: () => undefined,
  });
  // a short drain: the call in flight outlives it and must be answered by the stop itself
  const gateway = await serveHttp({ sift, mode: "direct", state, drainMs: 100 });
  const closeGateway = gateway.close;
  gateway.close = async () => {
    await closeGateway();
    await store.close();
  };
  return { gateway, published };
}

beforeAll(async () => {
  redis = await startTestRedis();
  replicas.push(await startReplica(), await startReplica());
  proxy = await startRoundRobinProxy(() =>
    replicas.flatMap((replica) => replica.gateway.url ?? []),
  );
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const replica of replicas) await replica.gateway.close().catch(() => undefined);
  await redis?.dispose();
}, 30_000);

/** A client that answers sampling and elicitation with its own name. Its requests go to
 * `callsTo`; its answers to the server's requests (bodies of responses only) go to `answersTo`,
 * the other replica, as a balancer without stickiness may send them. */
async function connectAs(name: string, callsTo: Replica, answersTo: Replica): Promise<Client> {
  const client = new Client(
    { name, version: "1" },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    model: `model-of-${name}`,
    role: "assistant",
    content: { type: "text", text: `${name} sampled` },
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: "accept",
    content: { name: `${name} user` },
  }));
  const isAnswer = (body: unknown) =>
    typeof body === "string" && /"result"|"error"/.test(body) && !body.includes('"method"');
  const route: typeof fetch = (url, init) =>
    fetch(isAnswer(init?.body) ? (answersTo.gateway.url as string) : url, init);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(callsTo.gateway.url as string), { fetch: route }),
  );
  return client;
}

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

describe("replicas relaying and failing", () => {
  it("relays sampling and elicitation to the calling session when its answers reach another replica", async () => {
    const [first, second] = replicas as [Replica, Replica];
    // both calls run on the first replica; every answer is posted to the second
    const alice = await connectAs("alice", first, second);
    const bob = await connectAs("bob", first, second);
    const forwarded = () =>
      replicas.flatMap((replica) => replica.published).filter((m) => m.kind === "responses").length;
    const before = forwarded();
    // one after the other: calls of two sessions on one upstream connection take turns anyway
    const forAlice = await alice.callTool({ name: "relay__ask", arguments: { label: "a" } });
    const forBob = await bob.callTool({ name: "relay__ask", arguments: { label: "b" } });
    expect(text(forAlice)).toContain("alice sampled");
    expect(text(forAlice)).toContain("alice user");
    expect(text(forAlice)).not.toContain("bob");
    expect(text(forBob)).toContain("bob sampled");
    expect(text(forBob)).toContain("bob user");
    expect(text(forBob)).not.toContain("alice");
    // two answers per call reached the replica not running it and went over the bus
    expect(forwarded() - before).toBe(4);
    await alice.close();
    await bob.close();
  }, 60_000);

  it("answers a call in flight with an error when its replica stops, and the session goes on", async () => {
    const [first] = replicas as [Replica, Replica];
    const client = new Client({ name: "stopping", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(first.gateway.url as string));
    await client.connect(transport);
    const call = client.callTool({ name: "wait_forever", arguments: {} });
    // let the call reach the tool on the first replica, then stop that replica
    await new Promise((resolve) => setTimeout(resolve, 300));
    replicas.shift();
    await first.gateway.close();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/gateway stopped .* before "wait_forever" finished/);
    // the same session, now through the proxy to the replica left
    const again = new Client({ name: "stopping", version: "1" });
    await again.connect(
      new StreamableHTTPClientTransport(new URL(proxy.url), {
        sessionId: transport.sessionId as string,
      }),
    );
    const asked = await again.callTool({ name: "relay__ask", arguments: { label: "c" } });
    expect(asked.isError, text(asked)).toBeFalsy();
    await again.close();
    await client.close().catch(() => undefined);
  }, 60_000);
});
