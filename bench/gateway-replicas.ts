/**
 * `npm run bench -- gateway-replicas`: the HTTP gateway as replica processes behind a round-robin
 * proxy, in one run: one replica in memory, one on Redis, three on Redis. Each takes 1,000
 * concurrent `echo_token` calls from 100 sessions (throughput, p50/p99 latency), and Redis's
 * memory per session is read from `INFO memory`. The store's added latency per call is measured
 * apart, on one replica in memory and one on Redis running side by side: one session on each
 * makes calls one at a time in pairs (one on each, the order alternating), so a busy machine's
 * load falls on both alike; the figures are the difference of the two p50s, their ratio and the
 * median of the pairs' differences, with the load average before and after.
 */
import { availableParallelism, loadavg } from "node:os";
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
/** Call pairs of the added-latency comparison, and calls first made on each setup (not
 * counted: connections, JIT). */
const PAIRS = 400;
const WARM_UP = 20;

/** Latencies (ms) of `count` calls made one after the other by `client`. */
async function sequentialLatencies(client: Client, count: number, tag: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = performance.now();
    await client.callTool({ name: "echo_token", arguments: { token: `${tag}-${index}` } });
    latencies.push(performance.now() - start);
  }
  return latencies;
}

/** The latencies (ms) of one call on each of `clients`, one after the other. */
async function sequentialPair(clients: [Client, Client], tag: string): Promise<[number, number]> {
  const [first] = await sequentialLatencies(clients[0], 1, `${tag}a`);
  const [second] = await sequentialLatencies(clients[1], 1, `${tag}b`);
  return [first as number, second as number];
}

/** The store's added p50 per call: one replica in memory and one on Redis side by side, their
 * calls interleaved in rounds (see the header). */
async function addedLatency(redisUrl: string) {
  const memory = await startReplicaCluster(1, undefined);
  const shared = await startReplicaCluster(1, redisUrl);
  const clients: Client[] = [];
  try {
    for (const cluster of [memory, shared]) {
      const client = new Client({ name: "bench-sequential", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(cluster.url)));
      clients.push(client);
    }
    const [inMemory, onRedis] = clients as [Client, Client];
    await sequentialLatencies(inMemory, WARM_UP, "warm");
    await sequentialLatencies(onRedis, WARM_UP, "warm");
    const loadBefore = loadavg()[0] ?? Number.NaN;
    // one call on each, back to back, the first of the pair alternating: a load spike falls on
    // both setups alike, and each pair's difference is read apart from the others
    const times = { memory: [] as number[], redis: [] as number[], added: [] as number[] };
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const order = pair % 2 === 0 ? [inMemory, onRedis] : [onRedis, inMemory];
      const [first, second] = await sequentialPair(order as [Client, Client], `p${pair}`);
      const [memoryMs, redisMs] = pair % 2 === 0 ? [first, second] : [second, first];
      times.memory.push(memoryMs);
      times.redis.push(redisMs);
      times.added.push(redisMs - memoryMs);
    }
    return {
      memoryP50: quantile(times.memory, 0.5),
      redisP50: quantile(times.redis, 0.5),
      addedP50: quantile(times.added, 0.5),
      loadBefore,
      loadAfter: loadavg()[0] ?? Number.NaN,
    };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await memory.close();
    await shared.close();
  }
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
  let added: Awaited<ReturnType<typeof addedLatency>> | undefined;
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
        const throughput = (CALLS / load.elapsedMs) * 1000;
        rows.push(
          `| ${label} | ${throughput.toFixed(0)} | ${quantile(load.latencies, 0.5).toFixed(1)} | ${quantile(load.latencies, 0.99).toFixed(1)} | ${load.wrong.length} |`,
        );
      } finally {
        await cluster.close();
      }
    }
    added = await addedLatency(redis.url);
  } finally {
    await redis.dispose();
  }
  console.log(
    `\n## Gateway replicas (${CALLS} concurrent calls from ${SESSIONS} sessions; ${availableParallelism()} cores, loopback Redis, round-robin proxy in the bench process)\n`,
  );
  console.log("| setup | calls/s | p50 ms (load) | p99 ms (load) | wrong |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
  console.log(
    `\nRedis memory per session (record, reveals, tally): ${(perSession / 1024).toFixed(1)} KiB`,
  );
  if (added) printAdded(added);
}

function printAdded(added: Awaited<ReturnType<typeof addedLatency>>): void {
  const { memoryP50, redisP50, addedP50, loadBefore, loadAfter } = added;
  console.log(
    `\n## Added latency per call through the store (${PAIRS} pairs of calls one at a time, one on a replica in memory and one on a replica on Redis, order alternating, after ${WARM_UP} warm-up calls each; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after)\n`,
  );
  console.log(`p50 in memory ${memoryP50.toFixed(2)} ms, on Redis ${redisP50.toFixed(2)} ms`);
  console.log(
    `added p50: ${(redisP50 - memoryP50).toFixed(2)} ms (ratio ${(redisP50 / memoryP50).toFixed(2)}×); median of the pairs' differences ${addedP50.toFixed(2)} ms`,
  );
}
