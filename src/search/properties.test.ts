import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { ToolSearchIndex } from "./tool-search-index.js";

const WORDS = ["create", "issue", "list", "user", "send", "message", "file", "read", "dns", "page"];

const toolArbitrary = fc.record({
  name: fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
    .chain((parts) => fc.nat(999).map((n) => `${parts.join("_")}_${n}`)),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((w) => w.join(" ")),
  server: fc.constantFrom("alpha", "beta", "gamma"),
});

const catalogArbitrary = fc
  .uniqueArray(toolArbitrary, { selector: (t) => t.name, maxLength: 25 })
  .map((items) =>
    items.map(
      (item): ToolDefinition => ({ ...item, inputSchema: { type: "object", properties: {} } }),
    ),
  );

const queryArbitrary = fc
  .array(fc.constantFrom(...WORDS, "server:alpha", "+user", "-file"), {
    minLength: 1,
    maxLength: 4,
  })
  .map((words) => words.join(" "));

function build(tools: readonly ToolDefinition[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const tool of tools) index.add(tool);
  return index;
}

function summary(index: ToolSearchIndex, query: string): string {
  return JSON.stringify(
    index.search(query, { limit: 25, explain: true }).hits.map((hit) => [hit.name, hit.score]),
  );
}

describe("search properties", () => {
  it("insertion order does not change results", () => {
    fc.assert(
      fc.property(catalogArbitrary, queryArbitrary, (tools, query) => {
        const forward = build(tools);
        const backward = build([...tools].reverse());
        expect(summary(backward, query)).toBe(summary(forward, query));
        expect(backward.rank(query, 50)).toEqual(forward.rank(query, 50));
      }),
      { numRuns: 60 },
    );
  });

  it("add then remove equals never added", () => {
    fc.assert(
      fc.property(catalogArbitrary, catalogArbitrary, queryArbitrary, (kept, extra, query) => {
        const keptNames = new Set(kept.map((t) => t.name));
        const transient = extra.filter((t) => !keptNames.has(t.name));
        const clean = build(kept);
        const churned = new ToolSearchIndex();
        for (const tool of transient) churned.add(tool);
        for (const tool of kept) churned.add(tool);
        for (const tool of transient) expect(churned.remove(tool.name)).toBe(true);
        expect(churned.size).toBe(clean.size);
        expect(summary(churned, query)).toBe(summary(clean, query));
      }),
      { numRuns: 60 },
    );
  });

  it("select: returns exactly the named tools that exist", () => {
    fc.assert(
      fc.property(
        catalogArbitrary,
        fc.array(
          fc.oneof(fc.constantFrom("ghost", "nope_1"), fc.string({ minLength: 1, maxLength: 6 })),
        ),
        (tools, extras) => {
          const index = build(tools);
          const wanted = [...tools.slice(0, 3).map((t) => t.name), ...extras]
            .map((name) => name.replace(/[,\s"'`\u201c\u201d\u2018\u2019]/g, ""))
            .filter((name) => name.length > 0);
          fc.pre(wanted.length > 0);
          const result = index.search(`select:${wanted.join(",")}`);
          const unique = [...new Set(wanted)];
          expect(result.hits.map((hit) => hit.name)).toEqual(
            unique.filter((name) => index.has(name)),
          );
          expect(result.missing).toEqual(unique.filter((name) => !index.has(name)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("heavy churn keeps the index consistent with a fresh build", () => {
    const tools = Array.from({ length: 3000 }, (_, n) => ({
      name: `tool_${n}`,
      description: `${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]} thing ${n % 13}`,
      inputSchema: { type: "object", properties: {} },
    }));
    const churned = build(tools);
    for (const tool of tools.slice(0, 2500)) churned.remove(tool.name);
    const rest = tools.slice(2500);
    for (const tool of tools.slice(0, 100)) churned.add(tool);
    const fresh = build([...rest, ...tools.slice(0, 100)]);
    for (const query of ["create issue", "send message 7", "dns page"]) {
      expect(summary(churned, query)).toBe(summary(fresh, query));
    }
  });
});
