/**
 * `npm run bench -- gateway-replicas`: the HTTP gateway as replica processes behind a round-robin
 * proxy, in one run: one replica in memory, one on Redis, three on Redis. Each takes 1,000
 * concurrent `echo_token` calls from 100 sessions (throughput, p50/p99 latency), then 200 calls
 * one after the other from one session (the store's added latency per call), and Redis's memory
 * per session is read from `INFO memory`.
 */
import { availableParallelism } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createClient } from "redis";
import {
  quantile,
  runEchoLoad,
  startReplicaCluster,
} from "../test/fixtures/replicas/replica-cluster.js";
import { startTestRedis } from "../test/redis-server.js";

const SESSIONS = 100;
const CALLS = 1_000;
const SEQUENTIAL = 200;

/** Latencies (ms) of `count` calls made one after the other by one session. */
async function sequentialLatencies(url: string, count: number): Promise<number[]> {
  const client = new Client({ name: "bench-sequential", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = performance.now();
    await client.callTool({ name: "echo_token", arguments: { token: `q${index}` } });
    latencies.push(performance.now() - start);
  }
  await client.close();
  return latencies;
}

async function usedMemory(url: string): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  const info = await client.info("memory");
  await client.quit();
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

export async function runGatewayReplicasBench(): Promise<void> {
  const redis = await startTestRedis();
  const rows: string[] = [];
  let perSession = Number.NaN;
  try {
    for (const [label, count, store] of [
      ["1 replica, in memory", 1, undefined],
      ["1 replica, Redis", 1, redis.url],
      ["3 replicas, Redis", 3, redis.url],
    ] as const) {
      const cluster = await startReplicaCluster(count, store);
      try {
        const before = store ? await usedMemory(store) : 0;
        const load = await runEchoLoad(cluster.url, SESSIONS, CALLS);
        if (store && count === 1) perSession = ((await usedMemory(store)) - before) / SESSIONS;
        const alone = await sequentialLatencies(cluster.url, SEQUENTIAL);
        const throughput = (CALLS / load.elapsedMs) * 1000;
        rows.push(
          `| ${label} | ${throughput.toFixed(0)} | ${quantile(load.latencies, 0.5).toFixed(1)} | ${quantile(load.latencies, 0.99).toFixed(1)} | ${quantile(alone, 0.5).toFixed(2)} | ${quantile(alone, 0.99).toFixed(2)} | ${load.wrong.length} |`,
        );
      } finally {
        await cluster.close();
      }
    }
  } finally {
    await redis.dispose();
  }
  console.log(
    `\n## Gateway replicas (${CALLS} concurrent calls from ${SESSIONS} sessions, then ${SEQUENTIAL} sequential; ${availableParallelism()} cores, loopback Redis, round-robin proxy in the bench process)\n`,
  );
  console.log(
    "| setup | calls/s | p50 ms (load) | p99 ms (load) | p50 ms (one at a time) | p99 ms (one at a time) | wrong |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
  console.log(
    `\nRedis memory per session (record, reveals, tally): ${(perSession / 1024).toFixed(1)} KiB`,
  );
}
