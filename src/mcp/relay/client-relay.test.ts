import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "../serve/serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const relayServer = path.join(root, "test/fixtures/mcp/relay-server.mjs");
const stormServer = path.join(root, "test/fixtures/mcp/storm-server.mjs");

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

/** A client session whose every answer carries its label, so a crossed relay shows. */
async function labelledClient(url: string, label: string): Promise<Client> {
  const client = new Client(
    { name: label, version: "1" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: "assistant",
    model: `model-of-${label}`,
    content: { type: "text", text: `sampled by ${label}` },
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: "accept",
    content: { name: `elicited from ${label}` },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("server→client requests reach only the session whose call the upstream serves", () => {
  let running: RunningGateway | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await running?.close();
    running = undefined;
  });
  const start = async () => {
    const sift = await createMCPToolSift({
      servers: { relay: { command: "node", args: [relayServer] } },
    });
    running = await serveHttp({ sift, mode: "direct" });
    const url = running.url as string;
    const [alice, bob] = await Promise.all([
      labelledClient(url, "alice"),
      labelledClient(url, "bob"),
    ]);
    clients.push(alice, bob);
    return { alice, bob };
  };
  const ask = (client: Client, label: string, together = 1) =>
    client
      .callTool({ name: "relay__ask", arguments: { label, together } })
      .then((result) => text(result));

  it("declines a request made while calls of two sessions are in flight, never sending it to the other one", async () => {
    const { alice, bob } = await start();
    // the server waits until both calls are in flight, then samples and elicits in each
    const [forAlice, forBob] = await Promise.all([ask(alice, "alice", 2), ask(bob, "bob", 2)]);
    expect(forAlice).not.toContain("bob");
    expect(forBob).not.toContain("alice");
    for (const answer of [forAlice, forBob]) {
      expect(answer).toContain("declined it rather than guess which client session it is for");
      expect(answer).toContain("calls of 2 client sessions were in flight");
    }
    // from then on the sessions take turns on the connection, and each is asked itself
    const [again, bobAgain] = await Promise.all([ask(alice, "alice"), ask(bob, "bob")]);
    expect(again).toContain("sampled by alice");
    expect(again).toContain("elicited from alice");
    expect(bobAgain).toContain("sampled by bob");
    expect(bobAgain).toContain("elicited from bob");
  }, 60_000);

  it("two HTTP sessions calling one stdio upstream, 200 interleaved rounds: no relay crosses", async () => {
    const { alice, bob } = await start();
    let declined = 0;
    for (let round = 1; round <= 200; round += 1) {
      // both sessions call at once, in alternating order, each call sampling and eliciting
      const order = round % 2 === 0 ? ["alice", "bob"] : ["bob", "alice"];
      const answers = await Promise.all(
        order.map((label) => ask(label === "alice" ? alice : bob, label)),
      );
      for (const [index, label] of order.entries()) {
        const answer = answers[index] as string;
        const other = label === "alice" ? "bob" : "alice";
        expect(answer.startsWith(`call ${label}`)).toBe(true);
        expect(answer).not.toContain(other);
        for (const method of ["sampling/createMessage", "elicitation/create"]) {
          if (answer.includes(`${method} answered`)) continue;
          // only before the first relay is a request ambiguous: then it is declined, with why
          expect(round).toBe(1);
          expect(answer).toContain("declined it rather than guess");
          declined += 1;
        }
        if (round > 1) {
          expect(answer).toContain(`sampled by ${label}`);
          expect(answer).toContain(`elicited from ${label}`);
        }
      }
    }
    expect(declined).toBeLessThanOrEqual(4);
  }, 300_000);
});

describe("server→client requests outside any call", () => {
  let running: RunningGateway | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("declines sampling and elicitation that no call of the lone session asked for (SEP-2260)", async () => {
    const sift = await createMCPToolSift({
      servers: { storm: { command: "node", args: [stormServer] } },
    });
    running = await serveHttp({ sift, mode: "direct" });
    const client = await labelledClient(running.url as string, "alice");
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(String(notification.params.data));
    });
    try {
      // the server answers, then asks a moment later, when nothing of this session is in flight
      await client.callTool({ name: "storm__elicit_later", arguments: {} });
      await vi.waitFor(() => expect(logs.join("\n")).toContain("sampling/createMessage"), {
        timeout: 30_000,
      });
      const outcome = logs.join("\n");
      expect(outcome).not.toContain("elicited from alice");
      expect(outcome).not.toContain("sampled by alice");
      for (const method of ["elicitation/create", "sampling/createMessage"]) {
        expect(outcome).toContain(`${method} failed`);
      }
      expect(outcome).toContain("outside any client request");
    } finally {
      await client.close();
    }
  }, 60_000);
});
