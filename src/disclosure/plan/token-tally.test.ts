import { describe, expect, it } from "vitest";
import { arrayCatalog, mcpTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { DisclosureOptions } from "../types.js";
import { buildDirectory } from "./build-directory.js";
import { estimateTokens } from "./estimate-tokens.js";

const TOOLS = 5_000;
const many = (count: number, servers = 1) =>
  Array.from({ length: count }, (_, index) =>
    mcpTool(`t${String(index).padStart(5, "0")}`, `server${index % servers}`),
  );

/** A disclosure whose counter counts its calls (10 tokens per text). */
function counted(options: Partial<DisclosureOptions> = {}) {
  const catalog = arrayCatalog(many(TOOLS));
  const calls = { count: 0 };
  const disclosure = createDisclosure({
    catalog,
    search: substringSearch(catalog),
    directory: false,
    countTokens: () => {
      calls.count += 1;
      return 10;
    },
    ...options,
  });
  return { disclosure, calls };
}

describe("activation counts definitions only as far as its thresholds", () => {
  it("auto past its ceiling measures a bounded number of definitions, not all 5,000", () => {
    const { disclosure, calls } = counted({ auto: { maxTokens: 500 } });
    const plan = disclosure.prepare({ session: "s" });
    expect(plan.active).toBe(true);
    // 51 definitions pass the 500-token ceiling; the meta tools and the note add a few more
    expect(calls.count).toBeLessThan(200);
    // the exact totals are still there when read, and in every copy of the plan
    expect(plan.stats.deferrableTokens).toBe(TOOLS * 10);
    expect(plan.stats.allTokens).toBe(TOOLS * 10);
    expect(plan.reason).toBe(
      `auto: deferrable definitions take ${TOOLS * 10} tokens (ceiling 500)`,
    );
    expect(JSON.parse(JSON.stringify(plan.stats)).allTokens).toBe(TOOLS * 10);
    expect(structuredClone(plan.stats).deferrableTokens).toBe(TOOLS * 10);
    expect({ ...plan.stats }).toEqual(plan.stats);
    expect(Object.isFrozen(plan.stats)).toBe(true);
  });

  it("a share of the window and a definitions budget stop counting once passed", () => {
    for (const options of [
      // the ceiling (default 20,000 tokens) is checked first: off here, it would count 2,001
      { auto: { contextShare: 0.1, maxTokens: Number.POSITIVE_INFINITY } },
      { definitionBudget: 500, auto: { maxTokens: Number.POSITIVE_INFINITY, toolCount: 1e9 } },
    ]) {
      const { disclosure, calls } = counted(options);
      const plan = disclosure.prepare({ session: "s", contextWindow: 5_000 });
      expect(plan.active).toBe(true);
      expect(calls.count, JSON.stringify(options)).toBeLessThan(200);
      expect(plan.stats.allTokens).toBe(TOOLS * 10);
    }
  });

  it("below every threshold the reason quotes the exact total", () => {
    const { disclosure } = counted({ auto: { maxTokens: 1e6, toolCount: 1e6 } });
    const plan = disclosure.prepare({ session: "s" });
    expect(plan.active).toBe(false);
    expect(plan.reason).toContain(`${TOOLS * 10} tokens < 1000000`);
    expect(plan.stats.loadedTokens).toBe(TOOLS * 10);
  });
});

describe("buildDirectory at thousands of servers", () => {
  it("finds the names that fit with a logarithmic number of counts", () => {
    let calls = 0;
    const count = (text: string) => {
      calls += 1;
      return estimateTokens(text);
    };
    const directory = buildDirectory(many(TOOLS, 2_500), 300, count);
    expect(directory.tier).toBe("names");
    expect(directory.tokens).toBeLessThanOrEqual(300);
    expect(directory.text).toMatch(/…and \d+ more$/);
    // counting every prefix from the longest down took ~2,500 counts
    expect(calls).toBeLessThan(40);
  });
});
