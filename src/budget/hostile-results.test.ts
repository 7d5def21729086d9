import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpuMs, cpuMsAsync } from "../../test/cpu-time.js";
import type { ToolResult } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";
import { capChars } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { o200kCounter } from "../tokens/index.js";
import { createSpillStore } from "./spill-store.js";
import { truncateResult } from "./truncate-result.js";

const LONE_SURROGATE = /\p{Cs}/u; // in u-mode a whole pair is one code point, so only halves match

/** Every string inside a value, keys included. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}

describe("cuts never split a surrogate pair (item 12)", () => {
  it("the note example: an emoji string cut to 20 tokens stays well-formed JSON", () => {
    const out = truncateResult({ note: "😀".repeat(500) }, { maxTokens: 20 });
    expect(out.truncated).toBe(true);
    for (const text of stringsOf(out.value)) expect(LONE_SURROGATE.test(text)).toBe(false);
    expect(JSON.stringify(out.value)).not.toMatch(/\\ud[89ab]/i);
  });

  it("text, JSON values and MCP blocks under every strategy and many budgets", () => {
    const piece = fc.constantFrom("😀", "a", " ", "日", "é", "\n", "{", "𝄞x");
    const text = fc.array(piece, { minLength: 1, maxLength: 400 }).map((parts) => parts.join(""));
    const strategy = fc.constantFrom("smart", "head", "tail", "head-tail" as const);
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 60 }), strategy, (body, maxTokens, how) => {
        for (const value of [
          body,
          { note: body, list: [body, body] },
          { content: [{ type: "text", text: body }] },
        ]) {
          const out = truncateResult(value, { maxTokens, strategy: how });
          for (const part of stringsOf(out.value)) expect(LONE_SURROGATE.test(part)).toBe(false);
          expect(out.tokens).toBeLessThanOrEqual(maxTokens);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("spill pages and character caps", () => {
    const store = createSpillStore({ pageTokens: 16 });
    const id = store.put("😀".repeat(300)) as string;
    let joined = "";
    for (let page = 1; page < 200; page++) {
      const read = store.read(id, { page, pageTokens: 16 });
      if (!read) break;
      expect(LONE_SURROGATE.test(read.text)).toBe(false);
      joined += read.text;
      if (read.done) break;
    }
    expect(joined).toBe("😀".repeat(300));
    expect(capChars("a😀b", 2)).toBe("a…");
    expect(capChars("😀😀", 3)).toBe("😀…");
  });
});

describe("truncation loses nothing silently (item 15)", () => {
  it("5,000 small text blocks: whole blocks from the head, then one note with count and tokens", () => {
    const blocks = Array.from({ length: 5_000 }, (_, index) => ({
      type: "text" as const,
      text: `row ${index}: ok`,
    }));
    const out = truncateResult({ content: blocks }, { maxTokens: 2_000 });
    const content = (out.value as ToolResult).content;
    const texts = content.map((block) => (block as { text: string }).text);
    const note = texts[texts.length - 1] as string;
    const kept = texts.slice(0, -1);
    expect(kept.length).toBeGreaterThan(200);
    expect(kept).toEqual(blocks.slice(0, kept.length).map((block) => block.text));
    expect(note).toMatch(
      new RegExp(`${5_000 - kept.length} more text blocks omitted \\(about \\d+ tokens\\)`),
    );
    expect(out.tokens).toBeLessThanOrEqual(2_000);
  });

  it("one oversized resource_link or unknown block becomes a note; the rest is kept", () => {
    for (const huge of [
      { type: "resource_link", uri: `https://example.com/${"x".repeat(100_000)}`, name: "big" },
      { type: "custom_payload", data: { rows: "y ".repeat(50_000) } },
    ]) {
      const result = {
        content: [
          { type: "text", text: "The query returned 3 rows." },
          huge,
          { type: "resource_link", uri: "file:///small.txt", name: "small" },
        ],
      } as ToolResult;
      const out = truncateResult(result, { maxTokens: 500 });
      const content = (out.value as ToolResult).content;
      expect(content[0]).toEqual(result.content[0]);
      expect((content[1] as { text: string }).text).toMatch(
        /^\[(resource_link https|custom_payload block).* omitted\]$/,
      );
      expect(content[2]).toEqual(result.content[2]);
      expect(out.notes.join(" ")).toMatch(/omitted \(\d+ tokens\)/);
    }
  });

  it("JSON 5,000 levels deep, as a value and as text, is cut without throwing", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 5_000; level++) deep = { next: deep, pad: "x".repeat(5) };
    const out = truncateResult(deep, { maxTokens: 300 });
    expect(out.truncated).toBe(true);
    expect(out.tokens).toBeLessThanOrEqual(300);
    expect(() => JSON.stringify(out.value)).not.toThrow();
    const text = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const fromText = truncateResult(text, { maxTokens: 300 });
    expect(fromText.tokens).toBeLessThanOrEqual(300);
    expect(typeof fromText.value).toBe("string");
  });

  it('keeps a "__proto__" key as data when an object is cut', () => {
    const value = JSON.parse(
      `{"__proto__": {"admin": true}, "rows": [${Array.from({ length: 500 }, (_, i) => `"row ${i}"`).join(",")}]}`,
    );
    for (const input of [value, JSON.stringify(value)]) {
      const out = truncateResult(input, { maxTokens: 100 });
      const output = typeof out.value === "string" ? JSON.parse(out.value) : out.value;
      expect(out.truncated).toBe(true);
      expect(Object.hasOwn(output, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
      expect(JSON.stringify(output)).toContain('"__proto__":{"admin":true}');
    }
  });

  it("an object whose toJSON throws gets a marker and a note, not [object Object]", () => {
    const value = {
      id: 7,
      broken: {
        toJSON() {
          throw new Error("socket closed");
        },
      },
      big: 10n,
    };
    const out = truncateResult(value, { maxTokens: 200 });
    expect(out.value).toEqual({ id: 7, broken: "[toJSON threw: socket closed]", big: "10" });
    expect(out.notes.join(" ")).toContain("$.broken: toJSON threw (socket closed)");
  });
});

/** A counter that records how many characters it was asked to read. */
function spyCounter(): TokenCounter & { read: number } {
  const spy = {
    read: 0,
    name: "o200k_base",
    maxTokenLength: o200kCounter.maxTokenLength as number,
    count(text: string) {
      spy.read += text.length;
      return o200kCounter.count(text);
    },
    bound(text: string) {
      spy.read += text.length;
      return o200kCounter.bound?.(text) ?? 0;
    },
    countUpTo(text: string, limit: number) {
      spy.read += text.length;
      return o200kCounter.countUpTo?.(text, limit) ?? 0;
    },
  };
  return spy;
}

describe("work after the handler is bounded (items 2 and 16)", () => {
  it("a 50 MB text is cut before it is counted: under 2 MB of it is read", () => {
    const huge = "The quick brown fox jumps over the lazy dog 1234. ".repeat(1_000_000);
    for (const value of [huge, { content: [{ type: "text", text: huge }] }]) {
      const counter = spyCounter();
      const out = truncateResult(value, { maxTokens: 2_000, counter });
      expect(out.tokens).toBeLessThanOrEqual(2_000);
      expect(out.originalExact).toBe(false);
      expect(out.originalTokens).toBeGreaterThan(9_000_000);
      expect(counter.read).toBeLessThan(2_000_000);
    }
  });

  it("hostile long runs are cut in time: 100k A (9.6 s before) and a 60k = handler under timeoutMs 1000", async () => {
    let out: ReturnType<typeof truncateResult> | undefined;
    const cutMs = cpuMs(() => {
      out = truncateResult("A".repeat(100_000), { maxTokens: 2_000 });
    });
    expect(out?.tokens).toBeLessThanOrEqual(2_000);
    expect(cutMs).toBeLessThan(3_000); // CPU guard: 9.6 s before
    const sift = createToolSift({
      tools: [
        {
          name: "dump",
          description: "Dump.",
          inputSchema: { type: "object" },
          handler: () => "=".repeat(60_000),
        },
      ],
      disclosure: { mode: "off" },
    });
    const { value: outcome, ms } = await cpuMsAsync(() =>
      sift.execute({ session: "s", name: "dump", arguments: {}, timeoutMs: 1_000 }),
    );
    expect(ms).toBeLessThan(1_000); // CPU guard: 4.5 s before
    expect(outcome.isError).toBeFalsy();
  });
});
