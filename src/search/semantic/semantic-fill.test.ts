import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import type { SearchOptions } from "../types.js";
import type { Embedder } from "./embedder.js";
import { SemanticSearch } from "./semantic-search.js";

const tools: ToolDefinition[] = Array.from({ length: 4 }, (_, index) => ({
  name: `tool_${index}`,
  description: `Tool number ${index}.`,
  inputSchema: { type: "object" },
}));

function vectorOf(text: string): Float32Array {
  const vector = new Float32Array(4);
  for (let index = 0; index < 4; index += 1) if (text.includes(`${index}`)) vector[index] = 1;
  vector[3] = (vector[3] as number) + 0.5;
  return vector;
}

function setup(embedder: Embedder, timeoutMs = 10_000) {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  const warnings: string[] = [];
  const semantic = new SemanticSearch(
    { embedder, timeoutMs, batchSize: 1 },
    { list: () => tools, version: () => 0 },
    (message) => warnings.push(message),
  );
  const lexical = (query: string, options: SearchOptions) => index.search(query, options);
  return { semantic, warnings, lexical };
}

async function until(check: () => boolean): Promise<void> {
  // a hang guard, not a timing assertion
  for (let round = 0; round < 2_000 && !check(); round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(check()).toBe(true);
}

describe("the embedding pass", () => {
  it("bounds the whole pass, not each batch: lexical now, vectors filled in the background, one warning", async () => {
    let calls = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // the first batch answers, the others wait for the gate: the pass cannot finish in time
    const embedder: Embedder = {
      embed: async (texts, { kind }) => {
        if (kind === "tool") {
          calls += 1;
          if (calls > 1) await gate;
        }
        return texts.map(vectorOf);
      },
    };
    const { semantic, warnings, lexical } = setup(embedder, 300);
    expect(await semantic.prepare(["tool 2"])).toBe(false);
    expect(await semantic.prepare(["tool 2"])).toBe(false);
    expect(calls).toBeLessThan(tools.length);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/still being embedded.*lexical/);
    expect(semantic.search("tool 2", {}, lexical)).toEqual(lexical("tool 2", {}));
    release();
    await until(() => semantic.stats().toolVectors === tools.length);
    expect(await semantic.prepare(["tool 2"])).toBe(true);
    expect(warnings).toHaveLength(1);
  });

  it("warns, naming the problem, for NaN, infinite, all-zero or wrong-dimension vectors", async () => {
    const cases: [string, (text: string) => Float32Array][] = [
      ["NaN or infinite", () => Float32Array.from([1, Number.NaN, 0])],
      ["NaN or infinite", () => Float32Array.from([1, Number.POSITIVE_INFINITY, 0])],
      // every tool blank: a broken embedder (one blank among others is the next test)
      ["all zeros", () => new Float32Array(3)],
      ["dimensions", (text) => new Float32Array(text.includes("2") ? 5 : 3).fill(1)],
    ];
    for (const [why, make] of cases) {
      const embedder: Embedder = { embed: async (texts) => texts.map(make) };
      const { semantic, warnings } = setup(embedder);
      expect(await semantic.prepare(["query"])).toBe(false);
      expect(warnings.join("\n"), why).toContain(why);
    }
  });

  it("ranks a tool whose vector is all zeros by its keywords, keeps the others' vectors, and warns once", async () => {
    // a word-vector table that knows no word of tool_2 (nor of the query "2")
    const embedder: Embedder = {
      embed: async (texts) =>
        texts.map((text) => (text.includes("2") ? new Float32Array(4) : vectorOf(text))),
    };
    const { semantic, warnings, lexical } = setup(embedder);
    expect(await semantic.prepare(["2"])).toBe(true);
    expect(semantic.stats().toolVectors).toBe(tools.length);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/1 of \d+ tools got an all-zero vector.*keywords only/);
    // the query's own vector is zeros too: the lexical result stands as it is
    expect(semantic.search("2", {}, lexical)).toEqual(lexical("2", {}));
    expect(await semantic.prepare(["tool 3"])).toBe(true);
    expect(semantic.search("tool 3", {}, lexical).hits[0]?.tool.name).toBe("tool_3");
    expect(warnings).toHaveLength(1);
  });

  it("backs off after a failure: the next searches do not call the embedder at once", async () => {
    let calls = 0;
    const embedder: Embedder = {
      embed: async () => {
        calls += 1;
        throw new Error("503 Service Unavailable");
      },
    };
    const { semantic, warnings } = setup(embedder);
    expect(await semantic.prepare(["a"])).toBe(false);
    expect(await semantic.prepare(["a"])).toBe(false);
    expect(await semantic.prepare(["a"])).toBe(false);
    expect(calls).toBe(1);
    expect(warnings[0]).toContain("503 Service Unavailable");
    expect(warnings.join("\n")).toMatch(/retried after/);
  });
});
