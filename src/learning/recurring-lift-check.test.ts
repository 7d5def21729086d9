// The complete-match check of a recurring request (`holdsWholeQuery`) walks posting lists, so the
// learned step asks it only when the lift would move a tool (bench/learned-speed.ts).
import { describe, expect, it, vi } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { ToolSearchIndex } from "../search/index.js";
import { UsageEvidence } from "./usage-evidence.js";

const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock("../search/rank/confidence.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../search/rank/confidence.js")>();
  return {
    ...original,
    holdsWholeQuery: (...args: Parameters<typeof original.holdsWholeQuery>) => {
      checks.count += 1;
      return original.holdsWholeQuery(...args);
    },
  };
});

function tool(name: string, description: string): ToolDefinition {
  return { name, description, server: "web", inputSchema: { type: "object", properties: {} } };
}

const TOOLS = [
  tool("navigate", "Open a URL in the browser"),
  tool("click", "Click an element of the page"),
  tool("fill", "Fill an input element of the page with text"),
  tool("print_page", "Print the page"),
];

function learnedIndex(query: string, called: ToolDefinition): ToolSearchIndex {
  const evidence = new UsageEvidence();
  for (let session = 0; session < 3; session += 1) evidence.record(query, called, `s${session}`);
  const index = new ToolSearchIndex();
  index.addAll(TOOLS);
  index.setLearned(evidence.learnedWords((name) => index.get(name)));
  return index;
}

describe("the complete-match check of a recurring request", () => {
  it("is not made when the request's tool is already first", () => {
    const query = "open the page in the browser";
    const index = learnedIndex(query, TOOLS[0] as ToolDefinition);
    const plain = new ToolSearchIndex();
    plain.addAll(TOOLS);
    const first = plain.search(query, { limit: 1 }).hits[0];
    // the tool sessions called is the first hit already, and not a strong one: the lift is asked
    expect([first?.name, first?.confidence?.level]).toEqual(["navigate", "weak"]);
    checks.count = 0;
    expect(index.rank(query, 2)[0]).toBe("navigate");
    expect(checks.count).toBe(0);
  });

  it("is made when the lift would move a tool, and then decides it", () => {
    const query = "open the page in the browser";
    const index = learnedIndex(query, TOOLS[2] as ToolDefinition);
    checks.count = 0;
    expect(index.rank(query, 1)).toEqual(["fill"]);
    expect(checks.count).toBe(1);
  });
});
