import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "../serve/serve-gateway.js";
import { callStreamId, parseEventId } from "./call-streams.js";
import { createMemorySessionStore } from "./memory-session-store.js";
import { createReplicaState } from "./replica-gateway.js";
import type { SessionStore } from "./session-store.js";

/** Answers when the test releases it. */
let release: (text: string) => void = () => undefined;
const heldTool: ToolDefinition = {
  name: "held_tool",
  description: "Answers when the test lets it.",
  inputSchema: { type: "object" },
  handler: () =>
    new Promise<string>((resolve) => {
      release = resolve;
    }),
};

let store: SessionStore;
let gateway: RunningGateway;
let client: Client;
let sessionId: string;

beforeAll(async () => {
  store = createMemorySessionStore();
  // fast heartbeats: a replica silent for 200 ms is taken for dead
  const state = createReplicaState(store, { calls: { beatMs: 25, deadAfterMs: 200 } });
  const sift = await createMCPToolSift({
    servers: {},
    tools: [heldTool],
    disclosure: { store: state.reveals.revealStore },
    log: () => undefined,
  });
  gateway = await serveHttp({ sift, mode: "direct", state, drainMs: 100 });
  client = new Client({ name: "resumer", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(gateway.url as string));
  await client.connect(transport);
  sessionId = transport.sessionId as string;
});

afterAll(async () => {
  await client?.close();
  await gateway?.close();
  await store?.close();
});

/** Resumes `eventId` with a GET as the SDK client does; resolves with the whole SSE body. */
async function resume(eventId: string): Promise<string> {
  const answer = await fetch(gateway.url as string, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
      "last-event-id": eventId,
    },
  });
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The JSON-RPC messages of an SSE body, with their event ids. */
function events(body: string): { id?: string; message: Record<string, unknown> }[] {
  return body
    .split("\n\n")
    .filter((block) => block.includes("data: {"))
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] as string;
      return { ...(id ? { id } : {}), message: JSON.parse(data) };
    });
}

describe("call stream ids", () => {
  it("name the owner, request and tool, and refuse anything else", () => {
    const stream = callStreamId({ owner: "replica-a", request: 7, tool: "slow" });
    expect(parseEventId(`${stream}.3`)).toEqual({
      stream,
      facts: { owner: "replica-a", request: 7, tool: "slow" },
      seq: 3,
    });
    expect(callStreamId({ owner: "replica-a", request: 7, tool: "slow" })).not.toBe(stream);
    for (const other of ["", "42", `${stream}`, `${stream}.x`, `${stream}.-1`, "c1-!!.1"]) {
      expect(parseEventId(other), other).toBeUndefined();
    }
    expect(parseEventId(`c1-${Buffer.from('["a",1,{},"t"]').toString("base64url")}.1`)).toBe(
      undefined,
    );
    expect(parseEventId(`${stream}${"a".repeat(1_100)}.1`)).toBeUndefined();
  });
});

describe("resuming a call stream", () => {
  it("answers a call whose owner replica stopped beating with an error naming the tool", async () => {
    // an owner that was alive, then died (its heartbeat lapses without a stop)
    await store.markLive("dead-replica", 100);
    const stream = callStreamId({ owner: "dead-replica", request: 41, tool: "slow_tool" });
    const [answer] = events(await resume(`${stream}.0`));
    expect(answer?.id).toBe(`${stream}.1`);
    expect(answer?.message).toMatchObject({ id: 41, result: { isError: true } });
    expect(JSON.stringify(answer?.message)).toMatch(
      /replica running \\"slow_tool\\" stopped answering .* call it again/,
    );
  });

  it("relays a live owner's kept events and adds no error while it beats", async () => {
    const beating = setInterval(() => void store.markLive("live-replica", 200), 25);
    await store.markLive("live-replica", 200);
    try {
      const stream = callStreamId({ owner: "live-replica", request: 5, tool: "slow_tool" });
      const progress = {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 1 },
      };
      // one event kept before the client came back, the answer sent over the bus after
      await store.putCallEvent(sessionId, stream, { seq: 1, message: progress });
      const body = resume(`${stream}.0`);
      const result = { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "ok" }] } };
      setTimeout(
        () =>
          void store.publish({
            target: sessionId,
            kind: "call-event",
            payload: { stream, seq: 2, message: result },
          }),
        300,
      );
      expect(events(await body)).toEqual([
        { id: `${stream}.1`, message: progress },
        { id: `${stream}.2`, message: result },
      ]);
    } finally {
      clearInterval(beating);
    }
  });

  it("says the answer was lost when the live owner no longer holds the call", async () => {
    // the gateway beats: it is the live owner here
    expect(await store.isLive(store.replica)).toBe(true);
    const stream = callStreamId({ owner: store.replica, request: 9, tool: "held_tool" });
    const [answer] = events(await resume(`${stream}.0`));
    expect(answer?.message).toMatchObject({ id: 9, result: { isError: true } });
    expect(JSON.stringify(answer?.message)).toMatch(/no longer holds the call/);
  });

  it("hands a running call over to the client's resumed stream (the SDK client reconnects)", async () => {
    // a client whose first call stream breaks right after its priming event
    let cut = true;
    const tokens: string[] = [];
    const resumedFrom: string[] = [];
    const breaking: typeof fetch = async (url, init) => {
      const last = new Headers(init?.headers).get("last-event-id");
      if (init?.method === "GET" && last) resumedFrom.push(last);
      const answer = await fetch(url, init);
      const isCall = typeof init?.body === "string" && init.body.includes('"tools/call"');
      if (!isCall || !cut || answer.body === null) return answer;
      cut = false;
      const reader = answer.body.getReader();
      const first = await reader.read();
      // the priming event goes through; the connection breaks once the client has taken it
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          if (first.value) controller.enqueue(first.value);
        },
        async pull(controller) {
          await expect.poll(() => tokens.length).toBeGreaterThan(0);
          controller.error(new Error("connection reset"));
          await reader.cancel();
        },
      });
      return new Response(body, { status: answer.status, headers: answer.headers });
    };
    const resumer = new Client({ name: "broken-stream", version: "1" });
    await resumer.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url as string), { fetch: breaking }),
    );
    const call = resumer.callTool({ name: "held_tool", arguments: {} }, undefined, {
      onresumptiontoken: (token) => tokens.push(token),
    });
    // the stream broke and was resumed (a GET with the priming event's id) before the tool answers
    await expect.poll(() => resumedFrom, { timeout: 20_000 }).toHaveLength(1);
    expect(resumedFrom).toEqual(tokens.slice(0, 1));
    release("held answer");
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "held answer" }]);
    await resumer.close();
  });
});
