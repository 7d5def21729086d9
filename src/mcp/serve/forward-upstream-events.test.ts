import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "./serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const stormServer = path.join(root, "test/fixtures/mcp/storm-server.mjs");

/** A client session that counts the resource and prompt notifications it receives. */
async function countingClient(url: string) {
  const counts = { resources: 0, prompts: 0, updated: 0 };
  const client = new Client({ name: "counter", version: "1" });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    counts.resources += 1;
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    counts.prompts += 1;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
    counts.updated += 1;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, counts };
}

describe("an upstream that floods resource and prompt notifications", () => {
  let running: RunningGateway | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await running?.close();
    running = undefined;
  });

  it("passes a burst of 2,000 on to each of three sessions as a few, the last always sent", async () => {
    const sift = await createMCPToolSift({
      servers: { storm: { command: "node", args: [stormServer] } },
    });
    running = await serveHttp({ sift, mode: "direct" });
    const url = running.url as string;
    const sessions = await Promise.all([
      countingClient(url),
      countingClient(url),
      countingClient(url),
    ]);
    clients.push(...sessions.map((session) => session.client));
    const [subscriber, ...others] = sessions;
    await subscriber?.client.subscribeResource({ uri: "storm://r" });
    const count = 2_000;
    await subscriber?.client.callTool({ name: "storm__notify", arguments: { count } });
    // each session hears of the burst (its last change is never held back for good) …
    await vi.waitFor(
      () => {
        for (const { counts } of sessions) {
          expect(counts.resources).toBeGreaterThan(0);
          expect(counts.prompts).toBeGreaterThan(0);
        }
        expect(subscriber?.counts.updated).toBeGreaterThan(0);
      },
      { timeout: 30_000 },
    );
    // … once the burst is over (a settle wait, not a speed check), as a handful, not thousands
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const { counts } of sessions) {
      expect(counts.resources).toBeLessThanOrEqual(20);
      expect(counts.prompts).toBeLessThanOrEqual(20);
    }
    expect(subscriber?.counts.updated).toBeLessThanOrEqual(20);
    for (const { counts } of others) expect(counts.updated).toBe(0);
  }, 60_000);
});
