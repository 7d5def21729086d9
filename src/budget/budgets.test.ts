import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import { o200kCounter } from "../tokens/index.js";
import { applyResultBudget } from "./apply-result-budget.js";
import { fitToBudget } from "./fit-to-budget.js";
import type { BudgetHit } from "./result-budget-tracker.js";
import { createResultBudgetTracker } from "./result-budget-tracker.js";
import { createSpillStore } from "./spill-store.js";

const tool = (
  name: string,
  words: number,
  extra: Partial<ToolDefinition> = {},
): ToolDefinition => ({
  name,
  description: "word ".repeat(words),
  inputSchema: { type: "object" },
  ...extra,
});

const words = (t: ToolDefinition) => t.description.length / 5;

describe("fitToBudget", () => {
  const tools = [
    tool("big", 400),
    tool("small", 5),
    tool("pinned", 300, { defer: "never" }),
    tool("mid", 50),
    tool("hidden", 1, { defer: "always" }),
  ];

  it("keeps never-defer tools first, then smaller tools, in input order", () => {
    const result = fitToBudget(tools, { maxTokens: 400, measure: words });
    expect(result.kept.map((t) => t.name)).toEqual(["small", "pinned", "mid"]);
    expect(result.dropped.map((t) => t.name)).toEqual(["big", "hidden"]);
    expect(result.tokens).toBeLessThanOrEqual(400);
  });

  it("explicit priority wins over size (after never-defer)", () => {
    const plain = fitToBudget(tools, { maxTokens: 720, measure: words });
    expect(plain.kept.map((t) => t.name)).toEqual(["small", "pinned", "mid"]);
    const result = fitToBudget(tools, {
      maxTokens: 720,
      measure: words,
      priority: (t) => (t.name === "big" ? 1 : 0),
    });
    expect(result.kept.map((t) => t.name)).toEqual(["big", "small", "pinned"]);
    expect(fitToBudget(tools, { maxTokens: 100, measure: words }).overBudgetNeverDefer).toEqual([
      "pinned",
    ]);
  });

  it("never exceeds the budget and is independent of input order (property)", () => {
    const arbitraryTools = fc.uniqueArray(
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 8 }),
        size: fc.integer({ min: 1, max: 500 }),
        never: fc.boolean(),
      }),
      { selector: (t) => t.name, maxLength: 30 },
    );
    fc.assert(
      fc.property(arbitraryTools, fc.integer({ min: 0, max: 3000 }), (specs, maxTokens) => {
        const defs = specs.map((spec) =>
          tool(spec.name, 0, {
            ...(spec.never ? { defer: "never" as const } : {}),
            keywords: [String(spec.size)],
          }),
        );
        const measure = (t: ToolDefinition) => Number(t.keywords?.[0]);
        const forward = fitToBudget(defs, { maxTokens, measure });
        const backward = fitToBudget([...defs].reverse(), { maxTokens, measure });
        expect(forward.tokens).toBeLessThanOrEqual(maxTokens);
        expect(new Set(forward.kept.map((t) => t.name))).toEqual(
          new Set(backward.kept.map((t) => t.name)),
        );
        expect(forward.kept.length + forward.dropped.length).toBe(defs.length);
      }),
    );
  });

  it("measures real definitions with the counter by default", () => {
    const result = fitToBudget([tool("a", 10)], { maxTokens: 1000 });
    expect(result.tokens).toBe(
      o200kCounter.count(
        JSON.stringify({
          name: "a",
          description: "word ".repeat(10),
          inputSchema: { type: "object" },
        }),
      ),
    );
  });

  it("rejects a negative budget", () => {
    expect(() => fitToBudget(tools, { maxTokens: -1 })).toThrow(/maxTokens must be a number ≥ 0/);
  });
});

describe("createResultBudgetTracker", () => {
  it("records, shrinks the per-result limit near the total, resets and snapshots", () => {
    const tracker = createResultBudgetTracker({ totalResults: 1000 });
    tracker.record("a", 600);
    tracker.record("b", 100);
    expect(tracker.used).toBe(700);
    expect(tracker.remaining).toBe(300);
    expect(tracker.limitFor(2000)).toBe(300);
    expect(tracker.limitFor(200)).toBe(200);
    expect(tracker.snapshot()).toEqual({
      used: 700,
      remaining: 300,
      total: 1000,
      byTool: { a: 600, b: 100 },
      calls: 2,
    });
    tracker.record("a", 900);
    expect(tracker.remaining).toBe(0);
    tracker.reset();
    expect(tracker.snapshot()).toEqual({
      used: 0,
      remaining: 1000,
      total: 1000,
      byTool: {},
      calls: 0,
    });
    expect(() => tracker.record("a", -1)).toThrow(/tokens must be ≥ 0/);
  });
});

describe("applyResultBudget", () => {
  const big = Array.from({ length: 400 }, (_, id) => ({ id, text: `row ${id} with some words` }));

  it("passes small results, cuts big ones to the tool limit and reports hits", async () => {
    const hits: BudgetHit[] = [];
    const tracker = createResultBudgetTracker({
      totalResults: 1500,
      onBudgetHit: (hit) => hits.push(hit),
    });
    const small = await applyResultBudget("fine", {
      tool: { name: "t" },
      tracker,
      perToolResult: 1000,
    });
    expect(small.truncated).toBe(false);
    expect(small.value).toBe("fine");
    const cut = await applyResultBudget(big, {
      tool: { name: "t", maxResultTokens: 500 },
      tracker,
      perToolResult: 1000,
    });
    expect(cut.truncated).toBe(true);
    expect(cut.limit).toBe(500);
    expect(o200kCounter.count(JSON.stringify(cut.value))).toBeLessThanOrEqual(500);
    expect(hits[0]).toMatchObject({ kind: "perResult", tool: "t", limit: 500 });
    // the total has about 1000 left: the next limit shrinks to it and reports a total hit
    const third = await applyResultBudget(big, {
      tool: { name: "u" },
      tracker,
      perToolResult: 5000,
    });
    expect(third.limit).toBe(1500 - small.tokens - cut.tokens);
    expect(hits[1]).toMatchObject({ kind: "total", tool: "u" });
    expect(tracker.used).toBe(small.tokens + cut.tokens + third.tokens);
    expect(tracker.used).toBeLessThanOrEqual(1500);
  });

  it("uses the summariser, budgets its output, and falls back with a note when it throws", async () => {
    const summarized = await applyResultBudget(big, {
      tool: { name: "t" },
      perToolResult: 300,
      summarize: async (_result, context) =>
        `Summary of ${context.tokens} tokens: 400 rows. ${"x ".repeat(2000)}`,
    });
    expect(summarized.summarized).toBe(true);
    expect(summarized.value as string).toMatch(/^Summary of \d+ tokens/);
    expect(o200kCounter.count(summarized.value as string)).toBeLessThanOrEqual(300);
    const failed = await applyResultBudget(big, {
      tool: { name: "t" },
      perToolResult: 300,
      summarize: async () => {
        throw new Error("model offline");
      },
    });
    expect(failed.summarized).toBe(false);
    expect(failed.notes[0]).toMatch(/summariser failed \(model offline\); truncated instead/);
    expect(Array.isArray(failed.value)).toBe(true);
  });

  it("keeps an MCP result an MCP result when the summariser returns a string", async () => {
    const mcp: ToolResult = {
      content: [{ type: "text", text: JSON.stringify(big) }],
      isError: true,
    };
    const out = await applyResultBudget(mcp, {
      tool: { name: "t" },
      perToolResult: 300,
      summarize: async () => "400 rows, all fine",
    });
    expect(out.summarized).toBe(true);
    expect(out.value).toEqual({
      content: [{ type: "text", text: "400 rows, all fine" }],
      isError: true,
    });
  });

  it("spills the full result and tells the model how to read it, within budget", async () => {
    const spill = createSpillStore({ pageTokens: 200 });
    const text = Array.from({ length: 600 }, (_, index) => `log line ${index}`).join("\n");
    const out = await applyResultBudget(text, {
      tool: { name: "logs", truncation: "tail" },
      perToolResult: 300,
      spill,
    });
    expect(out.spillId).toMatch(/^spill_[0-9a-f]{32}$/);
    expect(out.value as string).toContain(
      `tool_result_read with {"id": "${out.spillId}", "page": 1}`,
    );
    expect(o200kCounter.count(out.value as string)).toBeLessThanOrEqual(300);
    const mcp: ToolResult = { content: [{ type: "text", text }] };
    const wrapped = await applyResultBudget(mcp, {
      tool: { name: "logs" },
      perToolResult: 300,
      spill,
    });
    const blocks = (wrapped.value as ToolResult).content;
    expect(blocks.at(-1)).toMatchObject({ type: "text" });
    expect((blocks.at(-1) as { text: string }).text).toContain(wrapped.spillId as string);
  });
});
