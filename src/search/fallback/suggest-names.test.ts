import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import {
  bagDistance,
  boundedEditDistance,
  letterMask,
  maskDistance,
  NearestNames,
  nameSuffix,
  PREFIX_DISTANCE,
  queryEditBound,
  setBagProbe,
  WORD_MATCH_PENALTY,
  wordEditBound,
} from "../../internal/index.js";
import { splitIdentifier } from "../../text/index.js";
import { ToolSearchIndex } from "../tool-search-index.js";

/** The plain scan the index must agree with: every name and every name word, no shortcuts. */
function closestNames(query: string, names: readonly string[], count = 5): string[] {
  const nearest = new NearestNames(count);
  const whole = query.toLowerCase().trim();
  if (whole.length >= 2) {
    const bound = queryEditBound(whole.length);
    for (const name of names) {
      const lower = name.toLowerCase();
      const distance = Math.min(
        boundedEditDistance(whole, lower, bound),
        boundedEditDistance(whole, nameSuffix(lower), bound),
      );
      if (distance <= bound) nearest.offer(name, distance);
    }
  }
  for (const probe of splitIdentifier(query).filter((word) => word.length >= 2)) {
    const bound = wordEditBound(probe.length);
    for (const name of names) {
      for (const word of splitIdentifier(name)) {
        const distance = word.startsWith(probe)
          ? Math.min(PREFIX_DISTANCE, boundedEditDistance(probe, word, bound))
          : boundedEditDistance(probe, word, bound);
        if (distance <= bound) nearest.offer(name, distance + WORD_MATCH_PENALTY);
      }
    }
  }
  return nearest.result();
}

function tool(name: string, server?: string): ToolDefinition {
  return {
    name,
    description: "does a thing",
    inputSchema: { type: "object", properties: {} },
    ...(server ? { server } : {}),
  };
}

const NAMES = [
  "mcp__github__create_issue",
  "mcp__github__list_issues",
  "mcp__slack__send_message",
  "browser_take_screenshot",
  "browser_navigate",
  "math.factorial",
  "DNS_updateDNSRecordsV1",
];

function build(names = NAMES): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const name of names) index.add(tool(name, name.split("__")[1]));
  return index;
}

describe("no-match suggestions from the index", () => {
  it("agrees with the standalone closestNames on misspelt queries", () => {
    const index = build();
    let checked = 0;
    for (const query of [
      "screenshoot",
      "crate isue",
      "navigat",
      "factorail",
      "sendmesage",
      "dnz",
    ]) {
      const result = index.search(query);
      if (result.hits.length > 0) continue;
      checked += 1;
      expect(result.suggestions).toEqual(closestNames(query, NAMES));
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("forgets removed tools and counts servers as tools come and go", () => {
    const index = build();
    index.remove("browser_take_screenshot");
    expect(index.search("screenshoot").suggestions).not.toContain("browser_take_screenshot");
    expect(index.search("screenshoot").servers).toContainEqual({ server: "github", tools: 2 });
    index.remove("mcp__github__list_issues");
    expect(index.search("screenshoot").servers).toContainEqual({ server: "github", tools: 1 });
    index.add(tool("take_screenshot"));
    expect(index.search("screenshoot").suggestions?.[0]).toBe("take_screenshot");
  });

  it("respects a filter", () => {
    const result = build().search("screenshoot", {
      filter: (candidate) => !candidate.name.startsWith("browser"),
    });
    expect(result.suggestions).not.toContain("browser_take_screenshot");
  });
});

describe("edit-distance lower bounds", () => {
  it("never exceed the edit distance", () => {
    const word = fc.string({ unit: fc.constantFrom(..."abcdeAB1_z"), maxLength: 10 });
    fc.assert(
      fc.property(word, word, (probe, text) => {
        const lower = probe.toLowerCase();
        const distance = boundedEditDistance(lower, text.toLowerCase(), 20);
        setBagProbe(lower);
        expect(bagDistance(text, 0, text.length)).toBeLessThanOrEqual(distance);
        expect(maskDistance(letterMask(lower), letterMask(text))).toBeLessThanOrEqual(distance);
      }),
    );
  });

  it("keep the nearest names, each at its best distance", () => {
    const nearest = new NearestNames(2);
    nearest.offer("b", 2);
    nearest.offer("a", 3);
    nearest.offer("c", 1);
    nearest.offer("a", 0.5);
    nearest.offer("d", 1);
    expect(nearest.result()).toEqual(["a", "c"]);
  });
});
