/**
 * A replica killed outright (SIGKILL) with a call in flight: three `toolsift serve --http
 * --state redis://…` processes over a private redis-server and server-everything, behind a
 * round-robin proxy without stickiness. The official SDK client's call stream breaks, the client
 * resumes it (GET with Last-Event-ID) on a survivor, and that replica answers the call with an
 * error result naming the tool once the dead replica's heartbeat lapses — not after the SDK's
 * 60 s request timeout. The session, and another client's session, go on with reveals intact.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRoot, cliServeArgs } from "../../../test/cli-gateway.js";
import { startTestRedis, type TestRedis } from "../../../test/redis-server.js";
import { type RoundRobinProxy, startRoundRobinProxy } from "../../../test/round-robin-proxy.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const everything = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
const SLOW = "everything__trigger-long-running-operation";

interface ReplicaProcess {
  child: ChildProcess;
  url: string;
}

let redis: TestRedis;
let dir: string;
let proxy: RoundRobinProxy;
const replicas: ReplicaProcess[] = [];

/** One `toolsift serve` process in its own process group (killing the group takes its upstream
 * with it, as a lost machine would); resolves with its URL once its upstream is ready. */
async function startReplica(config: string): Promise<ReplicaProcess> {
  const child = spawn(
    process.execPath,
    cliServeArgs(config, ["--http", "127.0.0.1:0", "--state", redis.url, "--no-learning"]),
    { cwd: cliRoot, detached: true, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const found = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`replica exited (${code}): ${stderr}`)));
  });
  // ready: its upstream is up and Redis answers
  const deadline = Date.now() + 60_000;
  const ready = () =>
    fetch(new URL("/readyz", url)).then(
      (answer) => answer.status === 200,
      () => false,
    );
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`replica ${url} not ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, url };
}

/** Kills a replica's process group with `signal` and waits for the gateway process to exit. */
async function kill(replica: ReplicaProcess, signal: NodeJS.Signals): Promise<void> {
  const { child } = replica;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-(child.pid as number), signal);
  await exited;
}

beforeAll(async () => {
  redis = await startTestRedis();
  dir = await mkdtemp(path.join(tmpdir(), "toolsift-replica-death-"));
  const config = path.join(dir, "gateway.json");
  await writeFile(
    config,
    JSON.stringify({
      mode: "reveal",
      mcpServers: { everything: { command: process.execPath, args: [everything] } },
    }),
  );
  const started = await Promise.all([1, 2, 3].map(() => startReplica(config)));
  replicas.push(...started);
  proxy = await startRoundRobinProxy(() => replicas.map((replica) => replica.url));
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(replicas.map((replica) => kill(replica, "SIGKILL")));
  await redis?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

async function connected(): Promise<Client> {
  const client = new Client({ name: "replica-death", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  return client;
}

/** Searches until `tool` is found (and so revealed): a replica's readiness says its upstream is
 * up, and its tools may join the search index a moment later. */
async function search(client: Client, query: string, tool: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let found = "";
  while (!found.includes(tool) && Date.now() < deadline) {
    found = text(await client.callTool({ name: "tool_search", arguments: { queries: [query] } }));
  }
  expect(found).toContain(tool);
}

describe("a replica killed with a call in flight", () => {
  it("answers the call with an error from a survivor, and the sessions go on with their reveals", async () => {
    const client = await connected();
    const bystander = await connected();
    // reveal the slow tool in the store before the call (a call's own reveal is flushed only
    // when it answers, which the killed replica never does)
    await search(client, "long running operation", SLOW);
    await search(client, "echo a message", "everything__echo");
    await search(bystander, "add two numbers", "everything__get-sum");

    // a call of 40 s; the hang guard is the request timeout, well past the SDK's 60 s default
    const tokens: string[] = [];
    const call = client.callTool(
      { name: SLOW, arguments: { duration: 40, steps: 40 } },
      undefined,
      {
        timeout: 110_000,
        onresumptiontoken: (token) => tokens.push(token),
      },
    );
    // the call's stream is open (its priming event arrived): kill the replica holding it
    await expect.poll(() => tokens.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const posts = proxy.routed.filter((route) => route.method === "POST");
    const holder = replicas.find((replica) => replica.url === posts.at(-1)?.target);
    expect(holder).toBeDefined();
    replicas.splice(replicas.indexOf(holder as ReplicaProcess), 1);
    await kill(holder as ReplicaProcess, "SIGKILL");

    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      new RegExp(`replica running "${SLOW}" stopped answering .* call it again`),
    );
    // both sessions go on with the survivors, reveals intact
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining([SLOW, "everything__echo"]));
    for (let turn = 0; turn < 3; turn += 1) {
      const echo = await client.callTool({
        name: "everything__echo",
        arguments: { message: `after ${turn}` },
      });
      expect(echo.isError, text(echo)).toBeFalsy();
      expect(text(echo)).toContain(`after ${turn}`);
    }
    const sum = await bystander.callTool({
      name: "everything__get-sum",
      arguments: { a: 20, b: 22 },
    });
    expect(text(sum)).toContain("42");
    await client.close();
    await bystander.close();
  }, 120_000);
});
