import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { countTokens as cl100kRaw } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200kRaw } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { cpuMs } from "../../test/cpu-time.js";
import { sharedDir } from "../../test/shared-dir.js";
import { o200kCounter } from "./gpt-counters.js";
import { estimateO200kTokens } from "./o200k-bound.js";
import { countBySegments, forcedCuts, isPieceBoundary, MAX_UNBROKEN } from "./split-long-pieces.js";

const plain = { disallowedSpecial: new Set<string>() };
const o200k = (text: string) => o200kRaw(text, plain);
const cl100k = (text: string) => cl100kRaw(text, plain);

/** Sum of counts over the segments between every certain piece boundary. */
function countCutEverywhere(text: string, count: (part: string) => number): number {
  let total = 0;
  let start = 0;
  for (let index = 1; index < text.length; index++) {
    if (isPieceBoundary(text.charCodeAt(index - 1), text.charCodeAt(index))) {
      total += count(text.slice(start, index));
      start = index;
    }
  }
  return total + (text.length > 0 ? count(text.slice(start)) : 0);
}

const alphabet = fc.constantFrom(
  ..."abzAZ09 '\"{}[]:,./-_=\n\r\t!?<|>éÉ日😀²\u0301\u00a0\u3000".split(""),
  "'s",
  "'LL",
  "\ud800",
  "\udfff",
);

describe("certain piece boundaries", () => {
  it("cutting at every one of them leaves o200k and cl100k counts exact", () => {
    const texts = fc.oneof(
      fc.array(alphabet, { maxLength: 80 }).map((parts) => parts.join("")),
      fc.string({ maxLength: 80 }),
      fc.jsonValue().map((value) => JSON.stringify(value, null, 1) ?? ""),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(countCutEverywhere(text, o200k)).toBe(o200k(text));
        expect(countCutEverywhere(text, cl100k)).toBe(cl100k(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("leave every real catalog tool's count identical (no forced cut anywhere)", () => {
    const dir = path.join(sharedDir(), "catalogs");
    let texts = 0;
    let forced = 0;
    let counted = 0;
    let raw = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      const tools = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
        description?: string;
      }[];
      for (const tool of tools) {
        for (const text of [JSON.stringify(tool), JSON.stringify(tool, null, 2)]) {
          texts += 1;
          forced += forcedCuts(text).length;
          if (text.includes("\n")) continue; // pretty copies: the zero forced cuts prove them
          counted += o200kCounter.count(text);
          raw += o200k(text);
        }
      }
    }
    expect(texts).toBeGreaterThan(2_700);
    expect(forced).toBe(0);
    expect(counted).toBe(raw);
  });
});

describe("hostile long pieces", () => {
  const hostile: [string, string][] = [
    ["64k A", "A".repeat(64_000)],
    ["64k spaces", " ".repeat(64_000)],
    ["32k ab", "ab".repeat(32_000)],
    ["100k lone surrogates", "\ud800".repeat(100_000)],
    ["100k =", "=".repeat(100_000)],
    ["50k emoji", "😀".repeat(50_000)],
  ];

  it("reach the BPE in parts of at most MAX_UNBROKEN units, never splitting a pair", () => {
    for (const [label, text] of hostile) {
      let longest = 0;
      let joined = "";
      countBySegments(text, (part) => {
        longest = Math.max(longest, part.length);
        joined += part;
        // a part never ends inside a pair, so never with a high half followed by its low half
        expect(
          /[\ud800-\udbff]$/.test(part) && /^[\udc00-\udfff]/.test(text.slice(joined.length)),
          label,
        ).toBe(false);
        return 1;
      });
      expect(longest, label).toBeLessThanOrEqual(MAX_UNBROKEN);
      expect(joined, label).toBe(text);
    }
  });

  it("count in well under a second each (seconds to minutes before; 3 s is a hang guard) and stay near the exact count", () => {
    for (const [label, text] of hostile) {
      let tokens = 0;
      const countMs = cpuMs(() => {
        tokens = o200kCounter.count(text);
      });
      expect(countMs, label).toBeLessThan(3_000); // CPU guard
      expect(tokens, label).toBeLessThanOrEqual(estimateO200kTokens(text));
      expect(tokens, label).toBeGreaterThan(0);
    }
    // on a piece short enough to count exactly, the forced cuts cost under 1 % (one token per cut)
    const piece = "=".repeat(4_096);
    const cuts = forcedCuts(piece).length;
    expect(Math.abs(o200kCounter.count(piece) - o200k(piece))).toBeLessThanOrEqual(cuts);
  });

  it("countUpTo stops early and agrees with count under the limit", () => {
    const text = `${"A".repeat(10_000)} tail`;
    const exact = o200kCounter.count(text);
    expect(o200kCounter.countUpTo?.(text, exact)).toBe(exact);
    expect(o200kCounter.countUpTo?.(text, 10)).toBeGreaterThan(10);
  });
});
