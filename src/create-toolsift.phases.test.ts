// `ExecuteInput.onPhase`: a host times a call's search and result budget (the gateway's child
// spans) and learns what each found, in counts only; without it nothing is timed.
import { describe, expect, it } from "vitest";
import { deferredTool } from "../test/fixtures/deferred-tool.js";
import { createToolSift } from "./create-toolsift.js";
import {
  arrayCatalog,
  coreTool,
  mcpTool,
  substringSearch,
} from "./disclosure/__fixtures__/tools.js";
import { createDisclosure } from "./disclosure/create-disclosure.js";
import type { CallPhase, CallPhaseFacts } from "./disclosure/index.js";

const SECRET = "argument-value-4f2a";

const TOOLS = [
  { ...deferredTool("long_report", "Builds a long report"), handler: () => "word ".repeat(2_000) },
  { ...deferredTool("short_note", "Writes a short note"), handler: () => "done" },
  ...Array.from({ length: 20 }, (_, index) => deferredTool(`other_${index}`, `Other ${index}`)),
];

/** Records each phase's start and end, in order. */
function phaseLog() {
  const events: (string | CallPhaseFacts | undefined)[] = [];
  const onPhase = (phase: CallPhase) => {
    events.push(`start ${phase}`);
    return (facts?: CallPhaseFacts) => {
      events.push(facts);
    };
  };
  return { events, onPhase };
}

describe("execute onPhase", () => {
  const sift = createToolSift({
    tools: TOOLS,
    disclosure: { mode: "on", strategy: "reveal" },
    budget: { perToolResult: 100 },
  });

  it("times a search and says how many queries ran and tools it found and revealed", async () => {
    const { events, onPhase } = phaseLog();
    await sift.execute({
      session: "s1",
      name: "tool_search",
      arguments: { queries: ["long report", SECRET] },
      onPhase,
    });
    expect(events).toEqual([
      "start search",
      { phase: "search", queries: 2, results: 1, revealed: 1 },
    ]);
  });

  it("times the result budget with its tokens before and after, cut or not", async () => {
    const { events, onPhase } = phaseLog();
    await sift.execute({ session: "s2", name: "long_report", arguments: {}, onPhase });
    await sift.execute({ session: "s2", name: "short_note", arguments: {}, onPhase });
    expect(events).toEqual([
      "start budget",
      {
        phase: "budget",
        tokensBefore: expect.any(Number),
        tokensAfter: expect.any(Number),
        limit: 100,
        truncated: true,
        summarized: false,
        spilled: false,
      },
      "start budget",
      {
        phase: "budget",
        tokensBefore: 1,
        tokensAfter: 1,
        limit: 100,
        truncated: false,
        summarized: false,
        spilled: false,
      },
    ]);
    const cut = events[1] as { tokensBefore: number; tokensAfter: number };
    expect(cut.tokensBefore).toBeGreaterThan(1_000);
    expect(cut.tokensAfter).toBeLessThanOrEqual(100);
  });

  it("ends a budget phase that threw without facts; a host budget that reports none, bare", async () => {
    const catalog = arrayCatalog([coreTool("note")]);
    const search = substringSearch(catalog);
    const throwing = createDisclosure({
      catalog,
      search,
      mode: "off",
      budgetResult: () => {
        throw new Error("budget broke");
      },
    });
    const silent = createDisclosure({
      catalog,
      search,
      mode: "off",
      budgetResult: (result) => result,
    });
    const { events, onPhase } = phaseLog();
    const failed = await throwing.execute({ session: "s", name: "note", onPhase });
    await silent.execute({ session: "s", name: "note", onPhase });
    expect(failed.errorCode).toBe("hook_failed");
    expect(events).toEqual(["start budget", undefined, "start budget", { phase: "budget" }]);
  });

  it("ends a search phase whose query embedding threw without facts", async () => {
    const catalog = arrayCatalog([mcpTool("list_issues"), mcpTool("create_issue")]);
    const disclosure = createDisclosure({
      catalog,
      search: substringSearch(catalog),
      mode: "on",
      embedQueries: async () => {
        throw new Error("embedder down");
      },
    });
    const { events, onPhase } = phaseLog();
    const outcome = await disclosure.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["issue"] },
      onPhase,
    });
    expect(outcome.errorCode).toBe("internal");
    expect(events).toEqual(["start search", undefined]);
  });
});
