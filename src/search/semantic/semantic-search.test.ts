import { describe, expect, it, vi } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import type { SearchOptions } from "../types.js";
import { type Embedder, normalizeVector } from "./embedder.js";
import { SemanticSearch } from "./semantic-search.js";
import { Similarities } from "./similarities.js";
import { toolEmbeddingText } from "./tool-vectors.js";

// a toy embedder: each concept is one dimension, and words of one concept share it
const CONCEPTS: Record<string, number> = {
  film: 0,
  movie: 0,
  cinema: 0,
  flick: 0,
  invoice: 1,
  bill: 1,
  payment: 1,
  weather: 2,
  forecast: 2,
  rain: 2,
  email: 3,
  mail: 3,
  message: 3,
  repository: 4,
  repo: 4,
  code: 4,
  calendar: 5,
  meeting: 5,
  event: 5,
  file: 6,
  document: 6,
  folder: 6,
  user: 7,
  person: 7,
  people: 7,
};

function toyEmbedder(calls: string[][] = []): Embedder {
  return {
    id: "toy",
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map((text) => {
        const vector = new Float32Array(8);
        for (const word of text.toLowerCase().split(/[^a-z]+/)) {
          const dimension = CONCEPTS[word];
          if (dimension !== undefined) vector[dimension] = (vector[dimension] as number) + 1;
        }
        return vector;
      });
    },
  };
}

const tool = (name: string, description: string, server = "s"): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object" },
  server,
});

const TOOLS = [
  tool("search_movie", "Find a film by title in the cinema database."),
  tool("create_invoice", "Bill a customer for a payment."),
  tool("get_forecast", "Weather forecast for a city, with rain chances."),
  tool("send_email", "Send a mail message to a recipient."),
  tool("list_repos", "List code repositories of an account."),
  tool("create_event", "Add a meeting to the calendar."),
  tool("read_file", "Read a document from a folder."),
  tool("get_user", "Look up a person by id."),
];

function setup(embedder: Embedder = toyEmbedder(), tools = TOOLS) {
  const index = new ToolSearchIndex();
  index.addAll(tools);
  let version = 0;
  const list = [...tools];
  const warnings: string[] = [];
  const semantic = new SemanticSearch(
    { embedder },
    { list: () => list, version: () => version },
    (message) => warnings.push(message),
  );
  const lexical = (query: string, options: SearchOptions) => index.search(query, options);
  return {
    index,
    semantic,
    warnings,
    lexical,
    change(next: ToolDefinition[]) {
      list.splice(0, list.length, ...next);
      version += 1;
    },
  };
}

describe("SemanticSearch", () => {
  it("finds a tool that shares no word with the query", async () => {
    const { semantic, lexical } = setup();
    // "flick" is a synonym only the embedder knows
    expect(lexical("flick", {}).hits).toEqual([]);
    expect(await semantic.prepare(["flick"])).toBe(true);
    const fused = semantic.search("flick", {}, lexical);
    expect(fused.hits[0]?.name).toBe("search_movie");
    expect(fused.hits[0]?.semantic?.score).toBeGreaterThan(0);
    expect(fused.suggestions).toBeUndefined();
  });

  it("keeps the lexical order when words match, and adds the similarity part", async () => {
    const { semantic, lexical } = setup();
    await semantic.prepare(["send email message"]);
    const fused = semantic.search("send email message", { limit: 3 }, lexical);
    expect(fused.hits[0]?.name).toBe("send_email");
    const part = fused.hits[0]?.semantic?.score ?? 0;
    expect(part).toBeGreaterThan(0);
    expect(part).toBeLessThanOrEqual(0.1);
    expect(fused.hits[0]?.score).toBeCloseTo(0.9 + part, 5);
  });

  it("stays lexical until the query was prepared, and for select:, regex and browse", async () => {
    const { semantic, lexical } = setup();
    expect(semantic.search("repo", {}, lexical)).toEqual(lexical("repo", {}));
    await semantic.prepare(["select:get_user", "/^get_/", ""]);
    for (const query of ["select:get_user", "/^get_/", ""])
      expect(semantic.search(query, {}, lexical)).toEqual(lexical(query, {}));
  });

  it("never offers a tool the filter hides, nor adds tools to a constrained query", async () => {
    const { semantic, lexical } = setup();
    await semantic.prepare(["flick", "+read repo"]);
    expect(semantic.search("flick", {}, lexical).hits.length).toBeGreaterThan(0);
    const hidden = semantic.search("flick", { filter: (t) => t.name !== "search_movie" }, lexical);
    expect(hidden.hits.map((hit) => hit.name)).not.toContain("search_movie");
    const constrained = semantic.search("+read repo", {}, lexical);
    expect(constrained.hits.map((hit) => hit.name)).toEqual(
      lexical("+read repo", { limit: 25, cut: false })
        .hits.map((hit) => hit.name)
        .slice(0, 5),
    );
  });

  it("warns and stays lexical when the embedder fails, times out or answers wrongly", async () => {
    const failing: Embedder = { embed: async () => Promise.reject(new Error("quota exceeded")) };
    const short: Embedder = { embed: async () => [] };
    const slow: Embedder = { embed: () => new Promise(() => {}) };
    for (const [embedder, why] of [
      [failing, "quota exceeded"],
      [short, "0 vectors for 8 texts"],
    ] as const) {
      const { semantic, lexical, warnings } = setup(embedder);
      expect(await semantic.prepare(["repo"])).toBe(false);
      expect(warnings[0]).toContain(why);
      expect(semantic.search("repo", {}, lexical)).toEqual(lexical("repo", {}));
    }
    const index = new ToolSearchIndex();
    index.addAll(TOOLS);
    const warnings: string[] = [];
    const semantic = new SemanticSearch(
      { embedder: slow, timeoutMs: 20 },
      { list: () => TOOLS, version: () => 0 },
      (message) => warnings.push(message),
    );
    expect(await semantic.prepare(["repo"])).toBe(false);
    // the pass is bounded as a whole: the tools go on filling in the background
    expect(warnings[0]).toContain("still being embedded (0 of 8 after 20 ms)");
  });

  it("embeds each tool once, re-embeds only changed tools, and restores saved vectors", async () => {
    const calls: string[][] = [];
    const { semantic, change } = setup(toyEmbedder(calls));
    await semantic.prepare(["repo"]);
    await semantic.prepare(["mail"]);
    const toolTexts = calls.flat().filter((text) => text.includes("."));
    expect(toolTexts).toHaveLength(TOOLS.length);
    change([...TOOLS.slice(1), tool("search_movie", "Find a film, now with ratings.")]);
    calls.length = 0;
    await semantic.prepare(["repo"]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveLength(1);
    expect(semantic.stats().toolVectors).toBe(TOOLS.length);

    const saved = semantic.exportVectors();
    const again: string[][] = [];
    const restored = new SemanticSearch(
      { embedder: toyEmbedder(again), vectors: JSON.parse(JSON.stringify(saved)) },
      {
        list: () => [...TOOLS.slice(1), tool("search_movie", "Find a film, now with ratings.")],
        version: () => 0,
      },
      () => {},
    );
    await restored.prepare(["repo"]);
    expect(again).toEqual([["repo"]]);
  });

  it("refuses a weight outside 0–1", () => {
    expect(
      () =>
        new SemanticSearch(
          { embedder: toyEmbedder(), weight: 2 },
          { list: () => [], version: () => 0 },
          () => {},
        ),
    ).toThrow(/semanticWeight must be a number from 0 to 1/);
  });

  it("scores every tool only when an addition could be shown, and loses no hit", async () => {
    // 120 tools over the toy concepts: more rows than dimensions, and many similar tools
    const words = Object.keys(CONCEPTS);
    const tools = Array.from({ length: 120 }, (_, n) =>
      tool(`tool_${n}`, `${words[n % 25]} ${words[(n * 7) % 25]} ${n % 3 ? "" : "bill"}`),
    );
    const { semantic, lexical } = setup(toyEmbedder(), tools);
    const queries = ["flick", "film payment", "weather rain", "repo user", "mail folder event"];
    await semantic.prepare(queries);
    // the documented fusion, scoring every tool
    const embed = (texts: string[]) =>
      toyEmbedder()
        .embed(texts, { kind: "tool" })
        .then((vectors) => vectors.map(normalizeVector));
    const toolVectors = await embed(tools.map(toolEmbeddingText));
    const reference = async (query: string, limit: number, cut: boolean) => {
      const [q] = await embed([query]);
      const cosines = toolVectors.map((v) => v.reduce((sum, x, i) => sum + x * (q?.[i] ?? 0), 0));
      const mean = cosines.reduce((a, b) => a + b) / cosines.length;
      const sd = Math.sqrt(cosines.reduce((a, c) => a + (c - mean) ** 2, 0) / cosines.length);
      const z = (name: string) => ((cosines[Number(name.slice(5))] as number) - mean) / sd;
      const part = (name: string) => 0.1 * Math.min(1, Math.max(0, z(name) / 4));
      const pool = lexical(query, { limit: 25, cut: false }).hits;
      const best = pool[0]?.score ?? 0;
      const fused = pool.map((hit) => ({
        name: hit.name,
        score: (0.9 * hit.score) / best + part(hit.name),
      }));
      for (const t of tools)
        if (z(t.name) >= 2.5 && !pool.some((hit) => hit.name === t.name))
          fused.push({ name: t.name, score: part(t.name) });
      fused.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1));
      const top = fused[0]?.score ?? 0;
      return fused.filter((hit) => !cut || hit.score >= top * 0.4).slice(0, limit);
    };
    const scan = vi.spyOn(Similarities.prototype, "rowsAbove");
    let scans = 0;
    for (const query of queries) {
      for (const [limit, cut] of [
        [5, true],
        [3, true],
        [25, false],
        [2, false],
      ] as const) {
        scan.mockClear();
        const fused = semantic.search(query, { limit, cut }, lexical);
        const expected = await reference(query, limit, cut);
        expect(fused.hits.map((hit) => hit.name)).toEqual(expected.map((hit) => hit.name));
        fused.hits.forEach((hit, i) => {
          expect(hit.score).toBeCloseTo(expected[i]?.score ?? 0, 6);
        });
        // under the cut, a lexical hit scores at least 0.9 and an addition at most 0.1
        const lexicalHit = lexical(query, { limit: 1 }).hits.length > 0;
        if (cut && lexicalHit) expect(scan).not.toHaveBeenCalled();
        scans += scan.mock.calls.length;
      }
    }
    expect(scans).toBeGreaterThan(0);
    scan.mockRestore();
  });
});
