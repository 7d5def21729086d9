import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import type { ToolResult, TruncationStrategy } from "../catalog/index.js";
import { o200kCounter } from "../tokens/index.js";
import { truncateResult } from "./truncate-result.js";

const counter = o200kCounter;
const strategies: TruncationStrategy[] = ["smart", "head", "tail", "head-tail"];
const realTokens = (value: unknown) =>
  counter.count(typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

function largestMs365Tool(): unknown {
  const file = path.join(sharedDir(), "catalogs", "ms-365-mcp-server.json");
  const tools = JSON.parse(readFileSync(file, "utf8")) as unknown[];
  return tools
    .map((tool) => ({ tool, size: JSON.stringify(tool).length }))
    .sort((a, b) => b.size - a.size)[0]?.tool;
}

describe("truncateResult on JSON values", () => {
  it("always returns valid JSON within budget, unchanged when it fits (property)", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.integer({ min: 5, max: 2000 }),
        fc.constantFrom(...strategies),
        (value, maxTokens, strategy) => {
          const out = truncateResult(value, { maxTokens, strategy });
          const text = JSON.stringify(out.value);
          expect(JSON.stringify(JSON.parse(text))).toBe(text); // valid JSON (compared as text: -0 has no JSON form)
          if (typeof value === "string") expect(typeof out.value).toBe("string");
          expect(realTokens(out.value)).toBeLessThanOrEqual(maxTokens);
          expect(out.tokens).toBe(realTokens(out.value));
          if (realTokens(value) <= maxTokens) {
            expect(out.truncated).toBe(false);
            expect(out.value).toBe(value);
          } else expect(out.truncated).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps big arrays valid and bounded for every budget from 5 to 2000 (property)", () => {
    const big = fc.array(
      fc.record({
        id: fc.integer(),
        name: fc.string({ maxLength: 40 }),
        tags: fc.array(fc.string(), { maxLength: 8 }),
      }),
      { minLength: 50, maxLength: 300 },
    );
    fc.assert(
      fc.property(
        big,
        fc.integer({ min: 5, max: 2000 }),
        fc.constantFrom(...strategies),
        (value, maxTokens, strategy) => {
          const out = truncateResult(value, { maxTokens, strategy });
          expect(realTokens(out.value)).toBeLessThanOrEqual(maxTokens);
          expect(JSON.parse(JSON.stringify(out.value))).toEqual(out.value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("smart keeps keys, error fields and says what was cut", () => {
    const value = {
      error: { code: 429, message: "Rate limited: retry after 30 s" },
      status: "failed",
      items: Array.from({ length: 500 }, (_, index) => ({
        id: index,
        title: `Item number ${index}`,
      })),
      body: "lorem ipsum dolor sit amet ".repeat(400),
    };
    const out = truncateResult(value, { maxTokens: 300 });
    const kept = out.value as typeof value;
    expect(Object.keys(kept)).toEqual(["error", "status", "items", "body"]);
    expect(kept.error).toEqual(value.error);
    expect(kept.status).toBe("failed");
    expect(kept.items.length).toBeGreaterThan(1);
    expect(kept.items.length).toBeLessThan(60);
    expect(kept.items.at(-1)).toMatch(/^… \d+ more items$/);
    expect(kept.body).toMatch(/chars cut …\]$/);
    expect(out.notes.some((line) => line.startsWith("$.items: kept"))).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(300);
    expect(out.tokens).toBeGreaterThan(200); // uses most of the budget
  });

  it("tail and head-tail keep the last / both ends of arrays", () => {
    const value = Array.from({ length: 1000 }, (_, index) => index * 1001);
    const tail = truncateResult(value, { maxTokens: 100, strategy: "tail" }).value as unknown[];
    expect(tail[0]).toMatch(/items omitted/);
    expect(tail.at(-1)).toBe(999 * 1001);
    const both = truncateResult(value, { maxTokens: 100, strategy: "head-tail" })
      .value as unknown[];
    expect(both[0]).toBe(0);
    expect(both.at(-1)).toBe(999 * 1001);
    expect(both.some((item) => typeof item === "string" && item.includes("items omitted"))).toBe(
      true,
    );
  });

  it("cuts the largest real tool definition (ms-365, ~23k tokens) to several budgets", () => {
    const tool = largestMs365Tool();
    expect(realTokens(tool)).toBeGreaterThan(20_000);
    for (const maxTokens of [5, 50, 500, 2000, 8000]) {
      for (const strategy of strategies) {
        const out = truncateResult(tool, { maxTokens, strategy });
        expect(out.truncated).toBe(true);
        expect(realTokens(out.value)).toBeLessThanOrEqual(maxTokens);
        if (maxTokens >= 500) {
          expect(Object.keys(out.value as object)).toContain("name");
          expect(out.tokens).toBeGreaterThan(maxTokens * 0.6);
        }
      }
    }
    // the same tool as pretty JSON text stays valid JSON under smart
    const text = JSON.stringify(tool, null, 2);
    const out = truncateResult(text, { maxTokens: 1000 });
    expect(typeof out.value).toBe("string");
    expect(() => JSON.parse(out.value as string)).not.toThrow();
    expect(counter.count(out.value as string)).toBeLessThanOrEqual(1000);
  });

  it("rejects a budget below 1 with a clear error", () => {
    expect(() => truncateResult("x", { maxTokens: 0 })).toThrow(/maxTokens must be a number ≥ 1/);
  });
});

describe("truncateResult on text", () => {
  it("head, tail and head-tail stay within budget for arbitrary strings (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 3000 }), fc.string({ unit: "binary", maxLength: 1500 })),
        fc.integer({ min: 5, max: 400 }),
        fc.constantFrom<TruncationStrategy>("head", "tail", "head-tail"),
        (text, maxTokens, strategy) => {
          const out = truncateResult(text, { maxTokens, strategy });
          expect(typeof out.value).toBe("string");
          expect(counter.count(out.value as string)).toBeLessThanOrEqual(maxTokens);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("marks the cut with the number of omitted tokens and keeps the right ends", () => {
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index}: some log output here`);
    const text = lines.join("\n");
    const head = truncateResult(text, { maxTokens: 200, strategy: "head" }).value as string;
    expect(head.startsWith("line 0:")).toBe(true);
    expect(head).toMatch(/\[… (about )?\d+ tokens omitted …\]$/);
    const tail = truncateResult(text, { maxTokens: 200, strategy: "tail" }).value as string;
    expect(tail.endsWith("line 1999: some log output here")).toBe(true);
    const both = truncateResult(text, { maxTokens: 200, strategy: "head-tail" });
    expect((both.value as string).startsWith("line 0:")).toBe(true);
    expect((both.value as string).endsWith("here")).toBe(true);
    const omitted = Number(
      /\[… (?:about )?(\d+) tokens omitted …\]/.exec(both.value as string)?.[1],
    );
    expect(omitted).toBeGreaterThan(both.originalTokens - 200);
    expect(omitted).toBeLessThanOrEqual(both.originalTokens);
  });

  it("returns a minimal marker for tiny budgets", () => {
    const out = truncateResult("word ".repeat(5000), { maxTokens: 5, strategy: "head" });
    expect(counter.count(out.value as string)).toBeLessThanOrEqual(5);
    expect(out.value).toMatch(/…/);
  });
});

describe("truncateResult on MCP results", () => {
  it("passes short text results through with exact counts, and cuts them once over (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 600 }),
        (texts, maxTokens) => {
          const result: ToolResult = { content: texts.map((text) => ({ type: "text", text })) };
          const exact = texts.reduce((sum, text) => sum + counter.count(text), 0);
          const out = truncateResult(result, { maxTokens });
          if (exact <= maxTokens) {
            expect(out).toEqual({
              value: result,
              truncated: false,
              originalTokens: exact,
              originalExact: true,
              tokens: exact,
              notes: [],
            });
            expect(out.value).toBe(result);
          } else {
            expect(out.truncated).toBe(true);
            expect(out.originalTokens).toBe(exact);
            expect(out.tokens).toBeLessThanOrEqual(maxTokens);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  const image = { type: "image" as const, data: "A".repeat(160_000), mimeType: "image/png" };
  it("keeps media whole or replaces it with a note, never cuts it", () => {
    const result: ToolResult = {
      content: [
        { type: "text", text: "Screenshot taken. ".repeat(2000) },
        image,
        { type: "resource_link", uri: "file:///tmp/shot.png", name: "shot" },
        image,
      ],
      isError: false,
    };
    const out = truncateResult(result, { maxTokens: 2500 });
    const value = out.value as ToolResult;
    expect(value.isError).toBe(false);
    const images = value.content.filter((block) => block.type === "image");
    expect(images).toHaveLength(0); // each costs 1,600 and may take at most half of 2,500 - link
    const notes = value.content.filter(
      (block) => block.type === "text" && block.text.startsWith("[image image/png"),
    );
    expect(notes.map((block) => (block as { text: string }).text)).toEqual([
      "[image image/png 117 kB omitted]",
      "[image image/png 117 kB omitted]",
    ]);
    expect(value.content.some((block) => block.type === "resource_link")).toBe(true);
    for (const block of value.content)
      if (block.type === "image") expect(block.data).toBe(image.data);
    const withRoom = truncateResult(result, { maxTokens: 5000 }).value as ToolResult;
    expect(withRoom.content.filter((block) => block.type === "image")).toHaveLength(1);
    expect(out.tokens).toBeLessThanOrEqual(2500);
  });

  it("smart-truncates JSON text blocks and structuredContent, keeps isError", () => {
    const data = {
      error: "partial failure",
      rows: Array.from({ length: 800 }, (_, id) => ({ id, value: `v${id}` })),
    };
    const result: ToolResult = {
      content: [{ type: "text", text: JSON.stringify(data) }],
      structuredContent: data,
      isError: true,
    };
    const out = truncateResult(result, { maxTokens: 600 });
    const value = out.value as ToolResult;
    expect(value.isError).toBe(true);
    const first = value.content[0] as { text: string };
    const parsed = JSON.parse(first.text) as typeof data;
    expect(parsed.error).toBe("partial failure");
    // structuredContent is shrunk like the text (rows cut, the error kept), and a note says so
    const structured = value.structuredContent as typeof data | undefined;
    expect(structured?.error).toBe("partial failure");
    expect(structured?.rows.length).toBeLessThan(data.rows.length);
    expect(out.notes).toContainEqual(
      expect.stringMatching(/^structuredContent \$\.rows: kept \d+ of 800 items$/),
    );
    expect(out.tokens).toBeLessThanOrEqual(600);
    const tiny = truncateResult(result, { maxTokens: 5 }).value as ToolResult;
    expect(tiny.isError).toBe(true);
    expect(counter.count((tiny.content[0] as { text: string }).text)).toBeLessThanOrEqual(5);
  });

  it("passes a small result through untouched", () => {
    const result: ToolResult = { content: [{ type: "text", text: "ok" }] };
    const out = truncateResult(result, { maxTokens: 100 });
    expect(out.value).toBe(result);
    expect(out.truncated).toBe(false);
  });
});
