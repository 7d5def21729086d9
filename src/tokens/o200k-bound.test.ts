import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import { o200kCounter } from "./gpt-counters.js";
import { estimateByteBound, estimateCounter, estimateO200kTokens } from "./o200k-bound.js";
import { O200K_PAIR_BITS_BASE64 } from "./o200k-pairs.js";

const plain = { disallowedSpecial: new Set<string>() };
const real = (text: string) => o200kCounter.count(text);

describe("o200k pair table and digit facts", () => {
  it("matches the vocabulary: bit set exactly when a printable pair is one token", () => {
    const binary = atob(O200K_PAIR_BITS_BASE64);
    const wrong: string[] = [];
    for (let first = 32; first < 127; first++) {
      for (let second = 32; second < 127; second++) {
        const bit = (first - 32) * 95 + (second - 32);
        const inTable = (binary.charCodeAt(bit >> 3) & (1 << (bit & 7))) !== 0;
        const pair = String.fromCharCode(first, second);
        if (inTable !== (encode(pair, plain).length === 1)) wrong.push(pair);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("every 1-3 digit string is a single token (digit runs cost ceil(n/3))", () => {
    for (let value = 0; value < 1000; value++) {
      for (const text of [
        String(value),
        String(value).padStart(2, "0"),
        String(value).padStart(3, "0"),
      ]) {
        expect(encode(text, plain).length).toBe(1);
      }
    }
  });
});

const adversarialChars = fc.constantFrom(
  ..."abqjzxkvwgYZQJBAslrtvemdLST AZ09!\"#:{}[],.-_/\\'\n\t\r <|>é日😀\u0301".split(""),
  "\ud800",
  "\udfff",
);

describe("estimateO200kTokens never undercounts", () => {
  it("on arbitrary strings (ASCII, full unicode, lone surrogates, adversarial alphabets)", () => {
    const strings = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "binary", maxLength: 120 }),
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.array(adversarialChars, { maxLength: 150 }).map((chars) => chars.join("")),
      fc.jsonValue().map((value) => JSON.stringify(value) ?? ""),
      fc.jsonValue().map((value) => JSON.stringify(value, null, 2) ?? ""),
    );
    fc.assert(
      fc.property(strings, (text) => {
        expect(estimateO200kTokens(text)).toBeGreaterThanOrEqual(real(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("on hand-picked worst cases", () => {
    for (const text of [
      "qjzqjzqjz",
      "     x",
      "  \n  x",
      "!!a",
      " ! a",
      "a  b",
      "1234567",
      "ABCdefGH",
      "<|endoftext|>",
      "BBAa",
      '"\r/:',
      "it'sa",
      "IT'Sa",
      "we'LLx",
    ]) {
      expect(estimateO200kTokens(text)).toBeGreaterThanOrEqual(real(text));
    }
    expect(estimateO200kTokens("")).toBe(0);
  });

  it("on every real catalog tool, compact and pretty JSON, within 3.2x of the real count", () => {
    const dir = path.join(sharedDir(), "catalogs");
    let estimated = 0;
    let counted = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      const tools = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as unknown[];
      for (const tool of tools) {
        for (const text of [JSON.stringify(tool), JSON.stringify(tool, null, 2)]) {
          const bound = estimateO200kTokens(text);
          const exact = real(text);
          if (bound < exact) throw new Error(`${file}: bound ${bound} < real ${exact}`);
          estimated += bound;
          counted += exact;
        }
      }
    }
    const ratio = estimated / counted;
    expect(ratio).toBeGreaterThan(1);
    expect(ratio).toBeLessThan(3.2);
  });

  it("the byte bound is the UTF-8 length (3 per surrogate half) and never below the estimate's input cost", () => {
    expect(estimateByteBound("aé日")).toBe(1 + 2 + 3);
    expect(estimateByteBound("😀")).toBe(6);
    expect(estimateCounter.count("hello world")).toBe(estimateO200kTokens("hello world"));
  });
});
