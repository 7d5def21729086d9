/**
 * Load across replicas: 1,000 concurrent calls from 100 client sessions through a round-robin
 * proxy over three replica processes sharing one Redis. None may be lost (every call answered),
 * crossed (each answer echoes its own session's token) or answered twice (a replica that sees a
 * token again says so).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ReplicaCluster,
  runEchoLoad,
  startReplicaCluster,
} from "../../../test/fixtures/replicas/replica-cluster.js";
import { startTestRedis, type TestRedis } from "../../../test/redis-server.js";

let redis: TestRedis;
let cluster: ReplicaCluster;

beforeAll(async () => {
  redis = await startTestRedis();
  cluster = await startReplicaCluster(3, redis.url);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
  await redis?.dispose();
}, 60_000);

describe("three replicas under load", () => {
  it("answers 1,000 concurrent calls from 100 sessions, none lost, crossed or twice", async () => {
    const result = await runEchoLoad(cluster.url, 100, 1_000);
    expect(result.wrong).toEqual([]);
    expect(result.latencies).toHaveLength(1_000);
    expect(result.replicas).toBe(3);
  }, 300_000);
});
