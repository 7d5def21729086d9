import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis, type TestRedis } from "../../../test/redis-server.js";
import { createMemorySessionStore } from "./memory-session-store.js";
import { createRedisSessionStore } from "./redis-session-store.js";
import type { SessionRecord, SessionStore, StateMessage } from "./session-store.js";

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
}, 30_000);
afterAll(async () => {
  await redis?.dispose();
});

const record = (id: string): SessionRecord => ({
  id,
  protocolVersion: "2025-06-18",
  clientCapabilities: { sampling: {} },
  clientInfo: { name: "test-client", version: "1.0.0" },
  mode: "reveal",
  createdAt: 1,
  lastSeen: 1,
});

const limits = {
  maxRevealsPerSession: 3,
  maxEventsPerSession: 2,
  maxSpillsPerSession: 2,
  maxEventsPerCallStream: 2,
};

// the same contract for both stores: the Redis one must behave as today's memory
describe.each([
  ["memory", async () => createMemorySessionStore(limits)],
  [
    "redis",
    async () =>
      createRedisSessionStore({ url: redis.url, prefix: `t${Math.random()}:`, ...limits }),
  ],
] as const)("%s session store", (_kind, create) => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await create();
  });
  afterAll(async () => {
    await store.close();
  });

  it("writes a login only while it is what the writer read (compare-and-set), deletes it too", async () => {
    expect(await store.swapLogin("remote U", undefined, "one")).toBe(true);
    // a second writer that also read "absent" lost the race: nothing changes
    expect(await store.swapLogin("remote U", undefined, "other")).toBe(false);
    expect(await store.swapLogin("remote U", "stale", "other")).toBe(false);
    expect(await store.login("remote U")).toBe("one");
    expect(await store.swapLogin("remote U", "one", "two")).toBe(true);
    expect(await store.logins()).toEqual({ "remote U": "two" });
    expect(await store.swapLogin("remote U", "two", undefined)).toBe(true);
    expect(await store.login("remote U")).toBeUndefined();
  });

  it("gives a lock to one holder at a time, and again once released or expired", async () => {
    const release = await store.tryLock("login:a", 60_000);
    expect(release).toBeDefined();
    expect(await store.tryLock("login:a", 60_000)).toBeUndefined();
    await release?.();
    const next = await store.tryLock("login:a", 30);
    expect(next).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 80));
    // the holder never released: the lock expired, and its late release frees nothing
    const after = await store.tryLock("login:a", 60_000);
    expect(after).toBeDefined();
    await next?.();
    expect(await store.tryLock("login:a", 60_000)).toBeUndefined();
    await after?.();
  });

  it("keeps a session record until it is deleted, with everything kept for it", async () => {
    await store.putSession(record("s1"));
    await store.addReveals("s1", ["a"]);
    await store.putSpill("s1", "x", "full text");
    expect(await store.getSession("s1")).toEqual(record("s1"));
    await store.deleteSession("s1");
    expect(await store.getSession("s1")).toBeUndefined();
    expect(await store.revealed("s1")).toEqual([]);
    expect(await store.readSpill("s1", "x")).toBeUndefined();
  });

  it("appends reveals in order, once each, keeping the newest past the cap", async () => {
    await store.addReveals("s2", ["a", "b"]);
    await store.addReveals("s2", ["b", "c"]);
    expect(await store.revealed("s2")).toEqual(["a", "b", "c"]);
    await store.addReveals("s2", ["d"]);
    expect(await store.revealed("s2")).toEqual(["b", "c", "d"]);
  });

  it("keeps the order of reveals made within one millisecond", async () => {
    // one name at a time, as fast as the store takes them: many land in the same millisecond
    const names = ["k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"];
    await Promise.all(names.map((name) => store.addReveals("s-fast", [name])));
    expect(await store.revealed("s-fast")).toEqual(names.slice(-3));
  });

  it("adds up result tokens per session", async () => {
    expect(await store.addResultTokens("s3", 100)).toBe(100);
    expect(await store.addResultTokens("s3", 50)).toBe(150);
    expect(await store.resultTokens("s3")).toBe(150);
    expect(await store.resultTokens("other")).toBe(0);
  });

  it("keeps the newest spilled results and recorder events past their caps", async () => {
    for (const id of ["p1", "p2", "p3"]) await store.putSpill("s4", id, `text ${id}`);
    expect(await store.readSpill("s4", "p1")).toBeUndefined();
    expect(await store.readSpill("s4", "p3")).toBe("text p3");
    expect(await store.readSpill("elsewhere", "p3")).toBeUndefined();
    for (const n of [1, 2, 3]) await store.recordEvent("s4", { n });
    expect(await store.events("s4")).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it("shares pinned approvals", async () => {
    await store.setPin("fs_read", "hash1");
    expect(await store.pins()).toMatchObject({ fs_read: "hash1" });
  });

  it("keeps the newest events of a call stream, per session and stream", async () => {
    for (const seq of [1, 2, 3]) await store.putCallEvent("s6", "c1-a", { seq });
    await store.putCallEvent("s7", "c1-a", { seq: 9 });
    expect(await store.callEvents("s6", "c1-a")).toEqual([{ seq: 2 }, { seq: 3 }]);
    expect(await store.callEvents("s7", "c1-a")).toEqual([{ seq: 9 }]);
    expect(await store.callEvents("s6", "c1-b")).toEqual([]);
  });

  it("tells a replica that beats from one whose mark lapsed or was removed", async () => {
    await store.markLive("r1", 60_000);
    await store.markLive("r2", 60_000);
    await store.markLive("r3", 1);
    await store.markGone("r2");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.isLive("r1")).toBe(true);
    expect(await store.isLive("r2")).toBe(false);
    expect(await store.isLive("r3")).toBe(false);
    expect(await store.isLive("never")).toBe(false);
  });

  it("delivers published messages with the publishing replica", async () => {
    const got: StateMessage[] = [];
    const stop = store.subscribe((message) => got.push(message));
    await store.publish({ target: "s5", kind: "end" });
    await expect.poll(() => got.length, { timeout: 5_000 }).toBe(1);
    expect(got[0]).toEqual({ target: "s5", kind: "end", from: store.replica });
    stop();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe("redis session store", () => {
  it("puts an expiry on every session-scoped key", async () => {
    const store = await createRedisSessionStore({
      url: redis.url,
      prefix: "ttl:",
      sessionTtlMs: 60_000,
      callStreamTtlMs: 30_000,
    });
    await store.putSession(record("s"));
    await store.addReveals("s", ["a"]);
    await store.addResultTokens("s", 1);
    await store.putSpill("s", "x", "t");
    await store.recordEvent("s", {});
    await store.putCallEvent("s", "c1-x", {});
    await store.markLive(store.replica, 60_000);
    const { createClient } = await import("redis");
    const probe = createClient({ url: redis.url });
    await probe.connect();
    const keys = (await probe.keys("ttl:*")).filter((key) => key !== "ttl:pins");
    // session, reveals, reveal count, tokens, spill list, one spill text, events, a call
    // stream's kept events, the replica's heartbeat
    expect(keys.length).toBe(9);
    for (const key of keys) {
      const ttl = await probe.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(60_000);
    }
    await probe.quit();
    await store.close();
  });

  it("refuses a URL that is not Redis, and an unreachable server, naming the fix", async () => {
    await expect(createRedisSessionStore({ url: "http://x" })).rejects.toThrow(
      /not a Redis URL; use redis:\/\/HOST:PORT/,
    );
    await expect(createRedisSessionStore({ url: "redis://127.0.0.1:1" })).rejects.toThrow(
      /unreachable .*start Redis or check --state/,
    );
  });
});
