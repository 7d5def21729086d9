import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMCPToolSift } from "./create-mcp-toolsift.js";
import { createGatewaySession } from "./serve/gateway-session.js";
import { type RunningGateway, serveHttp } from "./serve/serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const everything = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

const conformanceServer = path.join(root, "test/fixtures/mcp/conformance-server.mjs");

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

/** A client that can sample, elicit and list roots, answering with what it was asked. */
async function capableClient(url: string, label: string): Promise<Client> {
  const client = new Client(
    { name: label, version: "1" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const first = request.params.messages[0]?.content;
    const asked = first && "text" in first ? first.text : "";
    return {
      role: "assistant",
      model: `model-of-${label}`,
      content: { type: "text", text: `${label} sampled: ${asked}` },
    };
  });
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: "accept",
    content: { name: `${label} user`, check: true },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: `file:///roots/${label}`, name: label }],
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("gateway pass-through with server-everything upstream", () => {
  let running: RunningGateway;
  const clients: Client[] = [];
  beforeAll(async () => {
    const sift = await createMCPToolSift({
      servers: { everything: { command: "node", args: [everything] } },
    });
    running = await serveHttp({ sift, mode: "direct" });
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await running?.close();
  });
  const connect = async (label: string) => {
    const client = await capableClient(running.url as string, label);
    clients.push(client);
    return client;
  };

  it("lists and reads resources and templates under their own URIs", async () => {
    const client = await connect("reader");
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0] as { uri: string };
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.includes("/text/{resourceId}"));
    expect(template).toBeDefined();
    // a URI from a template was never listed: routed by the template that matches it
    const uri = (template?.uriTemplate ?? "").replace("{resourceId}", "7");
    const fromTemplate = await client.readResource({ uri });
    expect(fromTemplate.contents[0]?.uri).toBe(uri);
    await expect(client.readResource({ uri: "nowhere://x" })).rejects.toThrow(/nowhere:\/\/x/);
  });

  it("namespaces prompts like tools, gets them and completes their arguments", async () => {
    const client = await connect("prompter");
    const { prompts } = await client.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(names).toContain("everything__simple-prompt");
    expect(names).toContain("everything__args-prompt");
    const simple = await client.getPrompt({ name: "everything__simple-prompt" });
    expect(simple.messages.length).toBeGreaterThan(0);
    const args = await client.getPrompt({
      name: "everything__args-prompt",
      arguments: { city: "Lyon" },
    });
    expect(JSON.stringify(args.messages)).toContain("Lyon");
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "everything__completable-prompt" },
      argument: { name: "department", value: "En" },
    });
    expect(completion.completion.values).toContain("Engineering");
    await expect(client.getPrompt({ name: "simple-prompt" })).rejects.toThrow(
      /No upstream server offers the prompt "simple-prompt"/,
    );
  });

  it("relays sampling, elicitation and roots to the client session that made the call", async () => {
    const alice = await connect("alice");
    const bob = await connect("bob");
    const sampled = await alice.callTool({
      name: "everything__trigger-sampling-request",
      arguments: { prompt: "hello" },
    });
    expect(text(sampled)).toContain("alice sampled:");
    expect(text(sampled)).toContain("model-of-alice");
    const elicited = await bob.callTool({
      name: "everything__trigger-elicitation-request",
      arguments: {},
    });
    expect(text(elicited)).toContain("bob user");
    expect(text(elicited)).not.toContain("alice");
    // a roots request outside any call is declined while several sessions are connected; the
    // one made during bob's call goes to bob
    await bob.sendRootsListChanged();
    let roots = "";
    for (let attempt = 0; attempt < 50 && !roots.includes("file:///roots/bob"); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      roots = text(await bob.callTool({ name: "everything__get-roots-list", arguments: {} }));
    }
    expect(roots).toContain("file:///roots/bob");
  });

  it("refuses a relayed request the client cannot answer, naming the method", async () => {
    const plain = new Client({ name: "plain", version: "1" });
    await plain.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    clients.push(plain);
    const result = await plain.callTool({
      name: "everything__trigger-sampling-request",
      arguments: { prompt: "hello" },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/sampling/);
  });
});

describe("reading a resource the session never listed", () => {
  it("asks the upstreams that offer resources, and names the URI and servers when none has it", async () => {
    const sift = await createMCPToolSift({
      servers: {
        everything: { command: "node", args: [everything] },
        conformance: { command: "node", args: [conformanceServer] },
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = createGatewaySession("reader", { sift, mode: "direct" });
    await session.connect(serverSide);
    const client = new Client({ name: "reader", version: "1" });
    await client.connect(clientSide);
    try {
      // a client that starts one process per call reads a known URI without listing first
      const read = await client.readResource({ uri: "test://static-text" });
      expect(read.contents[0]).toMatchObject({
        uri: "test://static-text",
        text: "This is the content of the static text resource.",
      });
      const failure = await client.readResource({ uri: "nowhere://x" }).then(
        () => "read",
        (error: Error) => error.message,
      );
      expect(failure).toContain('"nowhere://x"');
      expect(failure).toContain("everything");
      expect(failure).toContain("conformance");
      // the SDK adds "MCP error -32602:" once on each side; the text must carry it only once
      expect(failure.match(/MCP error/g)).toHaveLength(1);
    } finally {
      await client.close();
      await sift.close();
    }
  }, 60_000);
});

describe("resource subscriptions of a session", () => {
  it("are capped per session (maxSubscriptions), and freed by unsubscribe and by the session's end", async () => {
    const sift = await createMCPToolSift({
      servers: { conformance: { command: "node", args: [conformanceServer] } },
      maxSubscriptions: 3,
    });
    const open = async (label: string) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createGatewaySession(label, { sift, mode: "direct" }).connect(serverSide);
      const client = new Client({ name: label, version: "1" });
      await client.connect(clientSide);
      return client;
    };
    const a = await open("a");
    const b = await open("b");
    try {
      for (const id of [1, 2, 3]) await a.subscribeResource({ uri: `test://template/${id}/data` });
      const refused = await a.subscribeResource({ uri: "test://template/4/data" }).then(
        () => "subscribed",
        (error: Error) => error.message,
      );
      expect(refused).toContain("3 resource subscriptions");
      expect(refused).toContain("maxSubscriptions");
      // another session has places of its own, and unsubscribing frees one
      await b.subscribeResource({ uri: "test://template/1/data" });
      await a.unsubscribeResource({ uri: "test://template/3/data" });
      await a.subscribeResource({ uri: "test://template/4/data" });
      const subscriptions = sift.upstreams.features.subscriptions;
      expect(subscriptions.count()).toBe(3); // 1 (a and b), 2 and 4 (a)
      await a.close();
      await vi.waitFor(() => expect(subscriptions.count()).toBe(1), { timeout: 10_000 });
    } finally {
      await b.close();
      await sift.close();
    }
  }, 60_000);
});
