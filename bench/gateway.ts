/**
 * The MCP gateway (`npm run bench -- gateway`): the latency it adds to `tools/call` against
 * calling the same upstream directly in the same run, end to end through the CLI over stdio and
 * HTTP (gateway-end-to-end.ts) and in process; 1,000 concurrent calls over HTTP from 50
 * client sessions (none may be lost or mismatched); heap per idle HTTP session; start time with
 * the 20 real catalogs served by fixture upstreams.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createGatewaySession, createMCPToolSift, serveHttp } from "../src/mcp/index.js";
import { sharedDir } from "../test/shared-dir.js";
import { gatewayEndToEnd } from "./gateway-end-to-end.js";
import { gatewayMemory } from "./gateway-memory.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixture = path.join(root, "test/fixtures/mcp/catalog-server.mjs");
const CALLS = 2_000;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

async function timeCalls(client: Client, name: string): Promise<number[]> {
  for (let i = 0; i < 200; i += 1) await client.callTool({ name, arguments: { i } });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const start = performance.now();
    await client.callTool({ name, arguments: { i } });
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function latency(): Promise<Record<string, number>> {
  const direct = new Client({ name: "bench", version: "1" });
  await direct.connect(new StdioClientTransport({ command: "node", args: [fixture] }));
  const sift = await createMCPToolSift({
    servers: { up: { command: "node", args: [fixture] } },
  });
  // the client talks to the gateway in memory: what is measured is the gateway's own work
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = createGatewaySession("bench", { sift, mode: "direct" });
  await session.connect(serverSide);
  const viaGateway = new Client({ name: "bench", version: "1" });
  await viaGateway.connect(clientSide);
  // interleave the two runs so machine noise hits both alike
  const directTimes: number[] = [];
  const gatewayTimes: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    directTimes.push(...(await timeCalls(direct, "fixture_echo")));
    gatewayTimes.push(...(await timeCalls(viaGateway, "up__fixture_echo")));
  }
  directTimes.sort((a, b) => a - b);
  gatewayTimes.sort((a, b) => a - b);
  await viaGateway.close();
  await direct.close();
  await sift.close();
  return {
    "direct p50 (ms)": quantile(directTimes, 0.5),
    "gateway p50 (ms)": quantile(gatewayTimes, 0.5),
    "added p50 (ms)": quantile(gatewayTimes, 0.5) - quantile(directTimes, 0.5),
    "direct p99 (ms)": quantile(directTimes, 0.99),
    "gateway p99 (ms)": quantile(gatewayTimes, 0.99),
    "added p99 (ms)": quantile(gatewayTimes, 0.99) - quantile(directTimes, 0.99),
  };
}

async function concurrency(): Promise<Record<string, number>> {
  const sift = await createMCPToolSift({
    servers: { up: { command: "node", args: [fixture] } },
  });
  const running = await serveHttp({ sift, mode: "direct" });
  const connect = async () => {
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    return client;
  };
  const clients = await Promise.all(Array.from({ length: 50 }, connect));
  const start = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: 1_000 }, async (_, id) => {
      const client = clients[id % clients.length] as Client;
      try {
        const result = await client.callTool({ name: "up__fixture_echo", arguments: { id } });
        const text = (result.content as { text?: string }[])[0]?.text ?? "";
        return JSON.parse(text).id === id ? "ok" : "mismatched";
      } catch {
        return "lost";
      }
    }),
  );
  const wall = performance.now() - start;
  // heap per idle session: 50 more sessions that only initialize
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const idle = await Promise.all(Array.from({ length: 50 }, connect));
  gc?.();
  const after = process.memoryUsage().heapUsed;
  for (const client of [...clients, ...idle]) await client.close();
  await running.close();
  return {
    "calls ok (of 1,000)": outcomes.filter((o) => o === "ok").length,
    "calls lost": outcomes.filter((o) => o === "lost").length,
    "calls mismatched": outcomes.filter((o) => o === "mismatched").length,
    "wall time, 1,000 calls (ms)": wall,
    "heap per idle session, client+server in one process (KiB)": (after - before) / 50 / 1024,
  };
}

async function startTime(): Promise<Record<string, number>> {
  const dir = path.join(sharedDir(), "catalogs");
  const files = readdirSync(dir).filter((file) => file.endsWith(".json"));
  const servers = Object.fromEntries(
    files.map((file) => [
      path.basename(file, ".json").replace(/[^A-Za-z0-9_-]/g, "_"),
      { command: "node", args: [fixture, path.join(dir, file)] },
    ]),
  );
  const start = performance.now();
  const sift = await createMCPToolSift({ servers });
  const elapsed = performance.now() - start;
  const ready = sift.upstreams.status().filter((s) => s.state === "ready").length;
  const tools = sift.catalog.size - ready; // each fixture adds its own fixture_echo tool
  await sift.close();
  return { "servers ready": ready, "catalog tools": tools, "start to ready (ms)": elapsed };
}

export async function runGatewayBench(): Promise<void> {
  console.log("\n## MCP gateway (fixture upstreams over stdio)\n");
  console.log("| measure | value |\n| --- | --- |");
  // the second memory run shows what a smaller young generation saves (docs/mcp-gateway.md)
  const smallYoung = () => gatewayMemory(["--max-semi-space-size=2"]);
  for (const part of [
    gatewayEndToEnd,
    latency,
    concurrency,
    startTime,
    gatewayMemory,
    smallYoung,
  ]) {
    for (const [name, value] of Object.entries(await part())) {
      console.log(`| ${name} | ${Number.isInteger(value) ? value : value.toFixed(3)} |`);
    }
  }
}
