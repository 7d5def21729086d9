import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "./catalog/index.js";
import { createToolSift } from "./create-toolsift.js";
import type { Embedder } from "./search/index.js";

// each tool text and query is embedded by the concepts it names
const CONCEPTS = [/film|movie|flick/, /invoice|bill/, /forecast|weather/, /mail|message/];
const embedder: Embedder = {
  id: "concepts",
  embed: async (texts) =>
    texts.map((text) =>
      Float32Array.from(CONCEPTS.map((concept) => (concept.test(text.toLowerCase()) ? 1 : 0))),
    ),
};

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { id: { type: "string" } } },
  server: "demo",
  handler: () => ({ content: [{ type: "text", text: `${name} ran` }] }),
});

const tools = [
  tool("search_movie", "Find a film by title."),
  tool("create_invoice", "Bill a customer."),
  tool("get_forecast", "Weather for a city."),
  tool("send_email", "Send a mail message."),
  tool("delete_movie", "Remove a film."),
];

describe("createToolSift with an embedder", () => {
  it("tool_search finds and reveals a tool by meaning; search stays lexical and synchronous", async () => {
    const sift = createToolSift({
      tools,
      search: { embedder },
      disclosure: { mode: "on" },
      policy: { rules: [{ label: "no deletes", deny: ["delete_*"] }] },
    });
    expect(sift.search("flick").hits).toEqual([]);
    const outcome = await sift.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["flick"] },
    });
    expect(outcome.isError).toBeFalsy();
    expect(outcome.revealed).toEqual(["search_movie"]);
    // delete_movie is just as similar, but the policy hides it on every path
    const found = await sift.searchAsync("flick");
    expect(found.hits.map((hit) => hit.name)).toEqual(["search_movie"]);
    expect(sift.exportVectors()?.embedder).toBe("concepts");
  });

  it("tool_search embeds the query it runs: a query over 500 characters still finds by meaning", async () => {
    // the search meta tool caps each query at 500 characters; embedding the uncapped text left
    // the capped query without a vector, so the search silently ran lexical and found nothing
    const sift = createToolSift({ tools, search: { embedder }, disclosure: { mode: "on" } });
    const long = `flick ${"x".repeat(600)}`;
    const outcome = await sift.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: [long] },
    });
    expect(outcome.isError).toBeFalsy();
    // no word of the query is in any tool: only its vector can find the film tool
    const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(text).toContain("search_movie");
  });

  it("answers lexically and warns when the embedder fails", async () => {
    const warnings: string[] = [];
    const sift = createToolSift({
      tools,
      search: { embedder: { embed: async () => Promise.reject(new Error("offline")) } },
      onWarning: (message) => warnings.push(message),
    });
    const result = await sift.searchAsync("send email");
    expect(result.hits[0]?.name).toBe("send_email");
    expect(warnings.join(" ")).toMatch(/embedder failed \(offline\)/);
  });

  it("keeps every other path unchanged without an embedder", async () => {
    const sift = createToolSift({ tools });
    expect((await sift.searchAsync("flick")).hits).toEqual([]);
    expect(sift.exportVectors()).toBeUndefined();
  });
});

describe("execute keeps its no-throw promise around the facade's own steps", () => {
  it("reports a subscribe() listener that throws instead of failing the call", async () => {
    const warnings: string[] = [];
    const sift = createToolSift({ tools, onWarning: (message) => warnings.push(message) });
    sift.subscribe(() => {
      throw new Error("listener bug");
    });
    const outcome = await sift.execute({ session: "s", name: "send_email", arguments: {} });
    expect(outcome.isError).toBeFalsy();
    expect(warnings.join(" ")).toMatch(/listener threw: listener bug/);
  });

  it("answers a search call whose arguments throw when read, with an embedder set", async () => {
    const sift = createToolSift({ tools, search: { embedder }, disclosure: { mode: "on" } });
    const hostile = Object.defineProperty({}, "queries", {
      enumerable: true,
      get() {
        throw new Error("getter");
      },
    });
    const outcome = await sift.execute({ session: "s", name: "tool_search", arguments: hostile });
    expect(outcome.isError).toBe(true);
  });
});
