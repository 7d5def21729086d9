import { describe, expect, it } from "vitest";
import { applyResultBudget, createSpillStore } from "./budget/index.js";
import type { ToolDefinition } from "./catalog/index.js";
import { createToolSift } from "./create-toolsift.js";
import { arrayCatalog, substringSearch, textOf } from "./disclosure/__fixtures__/tools.js";
import { createDisclosure } from "./disclosure/index.js";

const never = () => new Promise<never>(() => {});
// generous: only a call that ignores its time limit gets near it, even on a loaded machine
const HANG_GUARD_MS = 20_000;

/** Resolves `work`, or fails the test when it hangs past the guard. */
async function settled<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("hung past the call's time limit")), HANG_GUARD_MS);
  });
  try {
    const value = await Promise.race([work, hung]);
    return { value, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

const dump: ToolDefinition = {
  name: "dump_logs",
  description: "Dumps the logs.",
  inputSchema: { type: "object", properties: {} },
  handler: () => "log line with some words in it\n".repeat(4_000),
};

describe("work after a handler stays inside the call's time limit", () => {
  it("a summariser that never answers is abandoned at the deadline; the cut keeps its spill note", async () => {
    const sift = createToolSift({
      tools: [dump],
      disclosure: { mode: "off" },
      budget: { perToolResult: 200, summarize: never, spill: createSpillStore() },
      tokens: "estimate",
    });
    const { value, ms } = await settled(
      sift.execute({ session: "s", name: "dump_logs", arguments: {}, timeoutMs: 300 }),
    );
    expect(ms).toBeLessThan(HANG_GUARD_MS);
    const texts = value.content.map((block) => (block.type === "text" ? block.text : ""));
    expect(texts[0]).toContain("log line");
    expect(texts.at(-1)).toMatch(/stored as spill_/);
    expect(texts.join("").length).toBeLessThan(4_000);
  });

  it("applyResultBudget says the summariser ran out of time and truncates instead", async () => {
    const result = "word ".repeat(5_000);
    const { value } = await settled(
      applyResultBudget(result, {
        tool: { name: "t" },
        perToolResult: 100,
        summarize: never,
        deadline: performance.now() + 50,
      }),
    );
    expect(value.summarized).toBe(false);
    expect(value.notes.join(" ")).toMatch(/time limit.*truncated instead/);
    expect(value.tokens).toBeLessThanOrEqual(100);
  });

  it("a result budget that never settles ends the call with an error naming the limit", async () => {
    const catalog = arrayCatalog([dump]);
    const disclosure = createDisclosure({
      catalog,
      search: substringSearch(catalog),
      mode: "off",
      budgetResult: never,
    });
    const { value } = await settled(
      disclosure.execute({ session: "s", name: "dump_logs", arguments: {}, timeoutMs: 100 }),
    );
    expect(value.isError).toBe(true);
    expect(textOf(value)).toMatch(/ran, but its result could not be processed within .*100 ms/);
  });
});
