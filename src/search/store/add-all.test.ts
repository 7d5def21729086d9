import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import { ToolSearchIndex } from "../tool-search-index.js";

const WORDS = ["create", "issue", "list", "user", "send", "message", "file", "dns", "42", "the"];

const toolArbitrary = fc.record({
  name: fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
    .chain((parts) => fc.nat(20).map((n) => `srv__${parts.join("_")}_${n}`)),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(" ")),
  server: fc.constantFrom("alpha", "beta"),
  params: fc.array(fc.constantFrom("id", "name", "query", "limit"), { maxLength: 3 }),
});

// duplicate names on purpose: addAll must replace exactly as add does
const toolsArbitrary = fc.array(
  toolArbitrary.map(
    ({ params, ...item }): ToolDefinition => ({
      ...item,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(params.map((p) => [p, { description: `the ${p} user` }])),
      },
    }),
  ),
  { maxLength: 30 },
);

function snapshot(index: ToolSearchIndex, queries: string[]): string {
  const hits = queries.map((query) =>
    index.search(query, { limit: 25, explain: true }).hits.map((hit) => [hit.name, hit.score]),
  );
  return JSON.stringify([index.size, index.list().map((tool) => tool.name), hits]);
}

describe("ToolSearchIndex.addAll", () => {
  it("gives the same index as adding the tools one by one, also on top of earlier tools", () => {
    fc.assert(
      fc.property(toolsArbitrary, toolsArbitrary, (first, second) => {
        const queries = ["create issue", "user 42", "send message file", "srv__list_user_3"];
        const one = new ToolSearchIndex();
        for (const tool of [...first, ...second]) one.add(tool);
        const bulk = new ToolSearchIndex();
        bulk.addAll(first);
        bulk.addAll(second);
        expect(snapshot(bulk, queries)).toBe(snapshot(one, queries));
        for (const tool of first) one.remove(tool.name);
        for (const tool of first) bulk.remove(tool.name);
        expect(snapshot(bulk, queries)).toBe(snapshot(one, queries));
      }),
      { numRuns: 60 },
    );
  });

  it("rejects a malformed tool before adding any, naming it", () => {
    const index = new ToolSearchIndex();
    const good = { name: "good_tool", description: "fine", inputSchema: { type: "object" } };
    const bad = { name: 7, description: "no name", inputSchema: {} } as unknown as ToolDefinition;
    let caught: unknown;
    try {
      index.addAll([good, bad]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolsiftError);
    expect((caught as ToolsiftError).code).toBe("invalid_tool");
    expect((caught as Error).message).toMatch(/tool 1 .*name/);
    expect(index.size).toBe(0);
    expect(() => index.add(bad)).toThrow(/add: tool .*string `name`/);
    const tagged = { ...good, name: "tagged", tags: "x" } as unknown as ToolDefinition;
    expect(() => index.addAll([tagged])).toThrow(/"tagged" has a `tags`/);
  });
});

describe("ToolSearchIndex.addAll postings", () => {
  it("sizes each posting list exactly after a big batch", () => {
    const tools: ToolDefinition[] = Array.from({ length: 3000 }, (_, n) => ({
      name: `srv__tool_${n}`,
      description: `alpha beta gamma item${n % 7} ${"filler ".repeat(n % 5)}`,
      inputSchema: { type: "object" },
    }));
    const index = new ToolSearchIndex();
    index.addAll(tools);
    const store = (
      index as unknown as {
        indexed: {
          store: {
            terms: string[];
            postingList(term: number): Uint32Array | undefined;
            postingLength: Int32Array;
          };
        };
      }
    ).indexed.store;
    for (let term = 0; term < store.terms.length; term += 1) {
      expect(store.postingList(term)?.length, `term ${term}`).toBe(store.postingLength[term]);
    }
    expect(index.search("alpha item3", { limit: 3 }).hits.length).toBe(3);
  });
});
