import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { followToLoopback } from "../../test/fixtures/mcp/follow-to-loopback.js";
import {
  type OAuthTestServer,
  startOAuthTestServer,
} from "../../test/fixtures/mcp/oauth-test-server.js";
import { startTestRedis, type TestRedis } from "../../test/redis-server.js";
import type { MCPToolSift } from "../mcp/index.js";
import { createRedisSessionStore, createReplicaState } from "../mcp/index.js";
import { capture } from "./__tests__/capture.js";
import { openGatewaySift } from "./gateway.js";
import { runCli } from "./run-cli.js";

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
}, 30_000);
afterAll(async () => {
  await redis?.dispose();
});

const cleanup: (() => Promise<unknown>)[] = [];
const savedXdg = process.env.XDG_CONFIG_HOME;
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
});

async function until(check: () => boolean): Promise<void> {
  // a hang guard, not a timing assertion
  for (let attempt = 0; attempt < 400 && !check(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A config whose `state` is the test Redis; the token file would go under the temp dir. */
async function writeConfig(server: OAuthTestServer): Promise<{ dir: string; config: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-replica-logins-"));
  process.env.XDG_CONFIG_HOME = dir;
  const config = path.join(dir, "gateway.json");
  const remote = {
    url: server.url,
    auth: { clientId: server.clientId, clientSecret: server.clientSecret },
  };
  await writeFile(config, JSON.stringify({ servers: { remote }, state: redis.url }));
  return { dir, config };
}

/** One replica as `toolsift serve --state` opens it; its log lines are kept in `io`. */
async function replica(config: string) {
  const state = createReplicaState(await createRedisSessionStore({ url: redis.url }));
  const io = capture();
  const { sift } = await openGatewaySift(config, io, 3, { state, waitForStart: false });
  cleanup.push(async () => {
    await sift.close();
    await state.store.close();
  });
  return { sift, io };
}

/** A gateway that shares no sessions (`serve` over stdio, the inspector) with the same config:
 * it keeps logins in the config's store too. */
async function stdioGateway(config: string) {
  const io = capture();
  const { sift } = await openGatewaySift(config, io, 3, { waitForStart: false });
  cleanup.push(() => sift.close());
  return { sift, io };
}

/** `toolsift auth login remote --config F --no-browser`, with the test following the address. */
async function cliLogin(config: string) {
  const io = capture();
  const running = runCli(["auth", "login", "remote", "--config", config, "--no-browser"], io);
  await until(() => io.err.includes("http"));
  await followToLoopback(new URL(io.err.match(/https?:\/\/\S+/)?.[0] as string));
  expect(await running).toBe(0);
  return io;
}

const call = (sift: MCPToolSift, text: string) =>
  sift.execute({ session: "s", name: "remote__echo", arguments: { text } });

describe("upstream OAuth logins in the replicas' state store", () => {
  it("one login for every replica: stored by `auth login`, refreshed once, logged out everywhere, never shown", async () => {
    const server = await startOAuthTestServer();
    cleanup.push(() => server.close());
    const { dir, config } = await writeConfig(server);
    const one = await replica(config);
    const two = await replica(config);
    const stdio = await stdioGateway(config);
    const waiting = () =>
      [one, two, stdio].every((each) => each.sift.upstreams.status()[0]?.state === "needs_login");
    await until(waiting);
    expect(waiting()).toBe(true);

    // the CLI writes the login to the config's state store, not the file
    const login = await cliLogin(config);
    expect(existsSync(path.join(dir, "toolsift", "tokens.json"))).toBe(false);
    const status = capture();
    await runCli(["auth", "status", "--config", config], status);
    expect(status.out).toMatch(/remote\s+logged in, access token until .* UTC, refreshable/);

    // both replicas come up on their own (the store's bus), without a restart or a call
    await until(() => [one, two, stdio].every((each) => each.sift.catalog.size > 0));
    for (const each of [one, two, stdio]) {
      expect(each.sift.upstreams.status()[0]?.state).toBe("ready");
    }
    const results = [await call(one.sift, "a"), await call(two.sift, "b")];
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false]);

    // the access token expires under both at once: one refresh, and neither call fails
    server.expireAccessTokens();
    const both = await Promise.all([call(one.sift, "c"), call(two.sift, "d")]);
    results.push(...both);
    expect(both.map((result) => result.isError ?? false)).toEqual([false, false]);
    expect(server.refreshes).toBe(1);
    // no spent refresh token was sent (the server would have revoked them all)
    expect(server.reuses).toBe(0);
    // what is stored is the live refresh token: the next expiry refreshes again, from either
    server.expireAccessTokens();
    const again = await call(two.sift, "e");
    results.push(again, await call(one.sift, "f"));
    expect(again.isError ?? false).toBe(false);
    expect(server.refreshes).toBe(2);
    expect(results.every((result) => !result.isError)).toBe(true);

    // logout through the CLI: every replica stops using the login
    const logout = capture();
    await runCli(["auth", "logout", "remote", "--config", config], logout);
    expect(logout.out).toBe("Logged out of remote.\n");
    for (const each of [one, two]) {
      const refused = await call(each.sift, "g");
      results.push(refused);
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("toolsift auth login remote --config");
    }

    // secrets: in Redis under the prefix only, and in no output, log line, result or status
    const peek = createClient({ url: redis.url });
    await peek.connect();
    const keys = await peek.keys("*");
    await peek.quit();
    expect(keys.every((key) => key.startsWith("toolsift:"))).toBe(true);
    const shown = [
      login.out + login.err,
      status.out,
      logout.out,
      one.io.err,
      two.io.err,
      stdio.io.err,
      JSON.stringify(results),
      JSON.stringify([one.sift.upstreams.status(), two.sift.upstreams.status()]),
    ].join("\n");
    const secrets = [...server.issued, server.clientSecret];
    expect(secrets.length).toBeGreaterThan(6);
    expect(secrets.filter((secret) => shown.includes(secret))).toEqual([]);
  }, 90_000);
});
