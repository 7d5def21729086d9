import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cl100kCounter, isEncodingLoaded, loadTokenCounter, o200kCounter } from "./gpt-counters.js";
import { countAtMost, countJson, fitsIn, upperBound, utf8Length } from "./token-counter.js";

describe("gpt-tokenizer counters", () => {
  it("load lazily: importing does not load an encoding, the first count does", () => {
    expect(isEncodingLoaded("o200k_base")).toBe(false);
    expect(o200kCounter.count("hello world")).toBe(2);
    expect(isEncodingLoaded("o200k_base")).toBe(true);
  });

  it("loadTokenCounter returns the same counter through dynamic import", async () => {
    const counter = await loadTokenCounter("cl100k_base");
    expect(counter).toBe(cl100kCounter);
    expect(isEncodingLoaded("cl100k_base")).toBe(true);
    expect(counter.count("hello world")).toBe(2);
  });

  it("treat special-token text as plain text instead of throwing", () => {
    expect(o200kCounter.count("<|endoftext|>")).toBeGreaterThan(1);
    expect(cl100kCounter.count("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("countUpTo is exact under the limit and above it otherwise", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(50);
    const exact = o200kCounter.count(text);
    expect(countAtMost(text, exact, o200kCounter)).toBe(exact);
    expect(countAtMost(text, exact - 1, o200kCounter)).toBeGreaterThan(exact - 1);
    expect(fitsIn(text, exact, o200kCounter)).toBe(true);
    expect(fitsIn(text, exact - 1, o200kCounter)).toBe(false);
  });

  it("cl100k bound (UTF-8 bytes) never undercounts", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 100 }), (text) => {
        expect(upperBound(text, cl100kCounter)).toBeGreaterThanOrEqual(cl100kCounter.count(text));
      }),
      { numRuns: 500 },
    );
  });

  it("countJson counts strings raw and other values as compact JSON", () => {
    expect(countJson("hello world", o200kCounter)).toBe(2);
    expect(countJson({ a: [1, 2] }, o200kCounter)).toBe(o200kCounter.count('{"a":[1,2]}'));
    expect(countJson(undefined, o200kCounter)).toBe(0);
    expect(utf8Length("aé😀\ud800")).toBe(1 + 2 + 4 + 3);
  });
});

describe("maxTokenLength", () => {
  it("is the longest vocabulary entry of o200k and cl100k (in bytes, so also in UTF-16 units)", () => {
    const load = createRequire(import.meta.url);
    for (const [name, counter] of [
      ["o200k_base", o200kCounter],
      ["cl100k_base", cl100kCounter],
    ] as const) {
      const ranks = load(`gpt-tokenizer/cjs/bpeRanks/${name}`) as
        | (string | number[])[]
        | { default: (string | number[])[] };
      const list = Array.isArray(ranks) ? ranks : ranks.default;
      let longest = 0;
      for (const entry of list) {
        const bytes = typeof entry === "string" ? utf8Length(entry) : (entry?.length ?? 0);
        longest = Math.max(longest, bytes);
      }
      expect(longest).toBe(counter.maxTokenLength);
    }
  });
});
