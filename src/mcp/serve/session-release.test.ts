/**
 * Leak test: the objects of an expired HTTP session (its MCP server, its transport) must be
 * collectable once the session is gone. Each session's server and transport is watched through a
 * WeakRef; after expiry and full collections none may still be reachable.
 *
 * The gateway's clock (`Date`) and its idle sweep (`setInterval`) are faked, so no session can
 * expire while the 500 are being opened, however slow the machine, and all expire at the moment
 * the test moves the clock past the idle limit. Requests, sockets and `setTimeout` stay real.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { serveHttp } from "./serve-gateway.js";

const watched: WeakRef<object>[] = [];

// every session the gateway creates is watched, without keeping it alive
vi.mock("./gateway-session.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./gateway-session.js")>();
  return {
    ...actual,
    createGatewaySession: (...args: Parameters<typeof actual.createGatewaySession>): Server => {
      const server = actual.createGatewaySession(...args);
      watched.push(new WeakRef(server));
      const connect = server.connect.bind(server);
      server.connect = async (transport) => {
        watched.push(new WeakRef(transport));
        await connect(transport);
      };
      return server;
    },
  };
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  // the gateway's shutdown waits on Date.now(): a frozen clock would never let it give up
  vi.useRealTimers();
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** How many watched objects are reachable after one full collection. */
function reachableNow(): number {
  gc();
  return watched.filter((ref) => ref.deref() !== undefined).length;
}

const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Opens one session the way a client does: initialize, initialized, then one tools/list. */
async function openSession(url: string): Promise<void> {
  const initialize = await fetch(url, {
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
  await initialize.text();
  const session = initialize.headers.get("mcp-session-id") as string;
  const send = async (body: unknown) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(body),
    });
    await response.text();
    return response.status;
  };
  expect(await send({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(202);
  expect(await send({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toBe(200);
}

/** Collects until none of the watched objects is reachable (or gives up), and returns how many
 * still are. WeakRef targets stay alive until the current job ends, so each round yields. */
async function reachableAfterCollection(): Promise<number> {
  let alive = watched.length;
  for (let round = 0; round < 50 && alive > 0; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    alive = reachableNow();
  }
  return alive;
}

describe("expired HTTP sessions", () => {
  it("free their server and transport: 500 sessions opened, expired, all collected", async () => {
    const idleMs = 3_000;
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const sift = await createMCPToolSift({ servers: {} });
    const running = await serveHttp({
      sift,
      mode: "bridge",
      maxSessions: 600,
      sessionIdleMs: idleMs,
    });
    cleanup.push(() => running.close());
    for (let index = 0; index < 500; index++) await openSession(running.url as string);
    expect(watched.length).toBe(1_000);
    // a session still open is reachable: the check below can see a leak
    await new Promise((resolve) => setImmediate(resolve));
    expect(reachableNow()).toBe(1_000);
    // just short of the idle limit, the sweeps so far close nothing
    vi.advanceTimersByTime(idleMs - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reachableNow()).toBe(1_000);
    // past it, the next sweep (every idleMs / 2) closes every session
    vi.advanceTimersByTime(idleMs / 2 + 1);
    // a hang guard, not a time limit: collection itself needs no waiting
    await vi.waitFor(async () => expect(await reachableAfterCollection()).toBe(0), {
      timeout: 30_000,
      interval: 300,
    });
  }, 120_000);
});
