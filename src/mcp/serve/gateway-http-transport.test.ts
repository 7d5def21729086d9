/**
 * The HTTP gateway answers a plain request on an open session itself: as JSON when the response
 * is all the call produces, as SSE when progress goes first; what the SDK must judge (a wrong
 * Accept header, a malformed request) still gets the SDK's answer.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "./serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const relayServer = path.join(root, "test/fixtures/mcp/relay-server.mjs");

const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

let running: RunningGateway;
let sessionHeaders: Record<string, string>;

beforeAll(async () => {
  const sift = await createMCPToolSift({
    servers: { relay: { command: process.execPath, args: [relayServer] } },
  });
  running = await serveHttp({ sift, mode: "direct" });
  const opened = await fetch(running.url as string, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });
  await opened.text();
  sessionHeaders = {
    ...headers,
    "mcp-session-id": opened.headers.get("mcp-session-id") as string,
    "mcp-protocol-version": "2025-06-18",
  };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

function post(body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(running.url as string, {
    method: "POST",
    headers: { ...sessionHeaders, ...extra },
    body: JSON.stringify(body),
  });
}

const flood = (id: number, count: number, progressToken?: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "relay__flood",
    arguments: { count },
    ...(progressToken ? { _meta: { progressToken } } : {}),
  },
});

describe("the HTTP gateway's own answers", () => {
  it("answers a call that produces only its response with application/json", async () => {
    const response = await post(flood(2, 0));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toBe(sessionHeaders["mcp-session-id"]);
    const answer = (await response.json()) as { id: number; result: { content: unknown[] } };
    expect(answer.id).toBe(2);
    expect(answer.result.content).toEqual([{ type: "text", text: "flooded 0" }]);
  }, 30_000);

  it("streams progress before the response as SSE, the response last", async () => {
    const response = await post(flood(3, 3, "p1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text())
      .split("\n\n")
      .filter((block) => block.startsWith("event: message"))
      .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)));
    expect(events.length).toBeGreaterThan(1);
    expect(events.slice(0, -1).every((event) => event.method === "notifications/progress")).toBe(
      true,
    );
    expect(events.at(-1)).toMatchObject({ id: 3, result: { content: [{ text: "flooded 3" }] } });
  }, 30_000);

  it("leaves what the SDK must judge to the SDK: a wrong Accept, a malformed request", async () => {
    const wrongAccept = await post(flood(4, 0), { accept: "application/json" });
    expect(wrongAccept.status).toBe(406);
    await wrongAccept.text();
    const malformed = await post({ ...flood(5, 0), extra: true });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
  }, 30_000);

  it("refuses a request whose id is still in flight in the session, and keeps each answer on its own request", async () => {
    // `ask` waits for 99 calls in flight (in vain: 5 s), so id 77 is still open when reused
    const slow = post({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "relay__ask", arguments: { label: "slow", together: 99 } },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reused = (await (await post(flood(77, 0))).json()) as {
      id: number;
      error?: { code: number; message: string };
    };
    expect(reused.id).toBe(77);
    expect(reused.error?.code).toBe(-32600);
    expect(reused.error?.message).toContain("Request id 77 is already in use");
    const first = await (await slow).text();
    expect(first).toContain("call slow");
    expect(first).not.toContain("flooded");
  }, 30_000);
});
