import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { listAllTools, MAX_LIST_CHARS, MAX_PAGES, MAX_TOOLS } from "./upstream-transport.js";

/** A client connected in memory to a server whose `tools/list` answers `page(n)` for page n. */
async function pagedServer(page: (n: number) => { tools: Tool[]; nextCursor?: string }) {
  const server = new Server({ name: "pager", version: "1" }, { capabilities: { tools: {} } });
  let asked = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => page(asked++));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return { client, pages: () => asked };
}

const tool = (name: string): Tool => ({ name, inputSchema: { type: "object" } });

describe("listAllTools", () => {
  it("reads every page until the server stops, with no warning", async () => {
    const { client } = await pagedServer((n) =>
      n < 3 ? { tools: [tool(`t${n}`)], nextCursor: `c${n}` } : { tools: [tool(`t${n}`)] },
    );
    const cuts: string[] = [];
    const tools = await listAllTools(client, 5_000, (message) => cuts.push(message));
    expect(tools.map((each) => each.name)).toEqual(["t0", "t1", "t2", "t3"]);
    expect(cuts).toEqual([]);
  });

  it("stops a server that pages forever after MAX_PAGES pages, and says so", async () => {
    const { client, pages } = await pagedServer((n) => ({
      tools: [tool(`t${n}`)],
      nextCursor: `c${n}`,
    }));
    const cuts: string[] = [];
    const tools = await listAllTools(client, 5_000, (message) => cuts.push(message));
    expect(pages()).toBe(MAX_PAGES);
    expect(tools).toHaveLength(MAX_PAGES);
    expect(cuts).toHaveLength(1);
    expect(cuts[0]).toContain("Stopped listing tools after 1,000 tools and 1,000 pages");
  }, 60_000);

  it("keeps at most MAX_TOOLS tools of a server that lists more", async () => {
    const many = Array.from({ length: 40_000 }, (_, index) => tool(`t${index}`));
    const { client, pages } = await pagedServer((n) => ({ tools: many, nextCursor: `c${n}` }));
    const cuts: string[] = [];
    const tools = await listAllTools(client, 5_000, (message) => cuts.push(message));
    expect(tools).toHaveLength(MAX_TOOLS);
    expect(pages()).toBe(3);
    expect(cuts[0]).toContain("100,000 tools");
  }, 60_000);

  it("stops quietly at a repeated cursor", async () => {
    const { client, pages } = await pagedServer(() => ({ tools: [tool("same")], nextCursor: "x" }));
    const cuts: string[] = [];
    await listAllTools(client, 5_000, (message) => cuts.push(message));
    expect(pages()).toBe(2);
    expect(cuts).toEqual([]);
  });

  it("stops a listing past MAX_LIST_CHARS of tool text (pages of 4 MB, forever), and says so", async () => {
    // one shared string: the test's memory stays small while the listing's text grows
    const huge = "x".repeat(1024 * 1024);
    const { client, pages } = await pagedServer((n) => ({
      tools: [0, 1, 2, 3].map((index) => ({ ...tool(`t${n}_${index}`), description: huge })),
      nextCursor: `c${n}`,
    }));
    const cuts: string[] = [];
    const tools = await listAllTools(client, 5_000, (message) => cuts.push(message));
    const kept = tools.reduce((sum, each) => sum + JSON.stringify(each).length, 0);
    expect(kept).toBeLessThanOrEqual(MAX_LIST_CHARS);
    expect(pages()).toBeLessThan(MAX_PAGES);
    expect(cuts).toHaveLength(1);
    expect(cuts[0]).toMatch(/Stopped listing tools after \d+ tools and \d+ pages/u);
    expect(cuts[0]).toContain("64.0 MB of tool definitions");
  }, 60_000);
});
