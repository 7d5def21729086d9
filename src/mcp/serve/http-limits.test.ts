import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, type ServeHttpOptions, serveHttp } from "./serve-gateway.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type Limits = Pick<ServeHttpOptions, "maxBodyBytes" | "maxSessions" | "sessionIdleMs">;

async function gateway(limits: Limits = {}): Promise<RunningGateway> {
  const sift = await createMCPToolSift({ servers: {} });
  const running = await serveHttp({ sift, mode: "bridge", ...limits });
  cleanup.push(() => running.close());
  return running;
}

const initialize = (clientInfo: unknown = { name: "test", version: "1" }) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo },
  });

const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function post(url: string, body: string, extra: Record<string, string> = {}) {
  const response = await fetch(url, { method: "POST", headers: { ...headers, ...extra }, body });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Streams `total` bytes in chunks without ending the request; resolves with the status the
 * gateway answers with. A gateway that reads the whole body first never answers. */
function streamWithoutEnd(url: string, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.on("error", () => undefined);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once("drain", pump);
          return;
        }
      }
    };
    pump();
    // hang guard: generous, only so that a failing gateway fails the test instead of hanging it
    setTimeout(() => reject(new Error("no answer before the body ended")), 20_000).unref();
  });
}

describe("the HTTP gateway's limits", () => {
  it("answers 413 to a body over maxBodyBytes, and to one declared over it", async () => {
    const running = await gateway({ maxBodyBytes: 1_000 });
    const url = running.url as string;
    const big = await post(url, initialize({ name: "x".repeat(2_000), version: "1" }));
    expect(big.status).toBe(413);
    expect(big.text).toMatch(/1000 bytes|maxBodyBytes|--max-body/);
    expect((await post(url, initialize())).status).toBe(200);
  });

  it("checks the size while the body streams in (4 MB by default), never reading it whole first", async () => {
    const running = await gateway();
    expect(await streamWithoutEnd(running.url as string, 6 * 1024 * 1024)).toBe(413);
  });

  it("refuses a session past maxSessions with 503 and says what to do", async () => {
    const running = await gateway({ maxSessions: 2 });
    const url = running.url as string;
    expect((await post(url, initialize())).status).toBe(200);
    expect((await post(url, initialize())).status).toBe(200);
    const third = await post(url, initialize());
    expect(third.status).toBe(503);
    expect(third.text).toMatch(/2 sessions/);
  });

  it("expires an idle session: its id is unknown afterwards and its slot is free", async () => {
    const running = await gateway({ maxSessions: 1, sessionIdleMs: 100 });
    const url = running.url as string;
    const first = await post(url, initialize());
    const id = first.headers.get("mcp-session-id") as string;
    expect(id).toBeTruthy();
    // polled, not timed: a new initialize (which touches no session) is refused until the sweep
    // closes the idle one and frees the only slot
    let status = 503;
    for (let attempt = 0; attempt < 400 && status === 503; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await post(url, initialize())).status;
    }
    expect(status).toBe(200);
    const old = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), {
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-06-18",
    });
    expect(old.status).toBe(404);
  });

  it("bounds what a client's initialize may make the gateway keep (clientInfo, capabilities)", async () => {
    const running = await gateway();
    const url = running.url as string;
    const long = await post(url, initialize({ name: "n".repeat(100_000), version: "1" }));
    expect(long.status).toBe(400);
    expect(long.text).toMatch(/clientInfo/);
    const wide = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { experimental: { blob: { data: "c".repeat(200_000) } } },
        clientInfo: { name: "test", version: "1" },
      },
    });
    const refused = await post(url, wide);
    expect(refused.status).toBe(400);
    expect(refused.text, refused.text.slice(0, 300)).toMatch(/capabilities/);
    const client = new Client({ name: "ok", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanup.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe("toolsift");
  });
});
