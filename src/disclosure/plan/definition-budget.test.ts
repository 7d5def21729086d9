import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { isToolsiftError } from "../../errors.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { DisclosureOptions } from "../types.js";
import { definitionText } from "./estimate-tokens.js";

/** A definition whose description says `size:N` costs exactly N tokens; other text costs chars/4. */
const sized = (text: string) => {
  const match = /size:(\d+)/.exec(text);
  return match ? Number(match[1]) : Math.ceil(text.length / 4);
};
const withSize = (tool: ToolDefinition, size: number): ToolDefinition => ({
  ...tool,
  description: `size:${size} ${tool.description}`,
});
const core = (name: string, size: number, extra: Partial<ToolDefinition> = {}) =>
  withSize(coreTool(name, extra), size);
const mcp = (name: string, size: number) => withSize(mcpTool(name), size);
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

function setup(tools: ToolDefinition[], options: Partial<DisclosureOptions> = {}) {
  const catalog = arrayCatalog(tools);
  return createDisclosure({
    catalog,
    search: substringSearch(catalog),
    countTokens: sized,
    // the server directory's size would blur the exact budget arithmetic these tests check
    directory: false,
    ...options,
  });
}

/** Meta tool tokens of an active plan over these tools (the budget does not change them here). */
const metaTokensOf = (tools: ToolDefinition[], options: Partial<DisclosureOptions> = {}) =>
  setup(tools, { ...options, mode: "on" }).prepare({ session: "probe" }).stats.metaTokens;

describe("definitions budget", () => {
  const fiveMcp = ["a", "b", "c", "d", "e"].map((name) => mcp(name, 100));

  it("activates auto mode when everything loaded would exceed it", () => {
    expect(setup(fiveMcp).prepare({ session: "s" }).active).toBe(false);
    const plan = setup(fiveMcp, { definitionBudget: 300 }).prepare({ session: "s" });
    expect(plan.active).toBe(true);
    expect(plan.reason).toMatch(/500 tokens, over the definitions budget of 300/);
    expect(plan.budget).toEqual({
      limit: 300,
      used: plan.stats.metaTokens,
      dropped: [],
      overBudget: false,
    });
    const roomy = setup(fiveMcp, { definitionBudget: 1_000 }).prepare({ session: "s" });
    expect(roomy.active).toBe(false);
    expect(roomy.budget).toEqual({ limit: 1_000, used: 500, dropped: [], overBudget: false });
  });

  it("mode off reports the budget as exceeded but never defers", () => {
    const plan = setup(fiveMcp, { mode: "off", definitionBudget: 300 }).prepare({ session: "s" });
    expect(plan.loaded).toHaveLength(5);
    expect(plan.budget).toEqual({ limit: 300, used: 500, dropped: [], overBudget: true });
  });

  it("never drops pinned tools, even when they alone exceed the budget", () => {
    const tools = [
      core("keep_me", 200, { defer: "never" }),
      core("glob_pinned", 200),
      core("loose", 50),
      mcp("remote", 100),
    ];
    const plan = setup(tools, { definitionBudget: 300, neverDefer: ["glob_*"] }).prepare({
      session: "s",
    });
    expect(plan.active).toBe(true);
    expect(names(plan.loaded)).toEqual(["glob_pinned", "keep_me"]);
    expect(plan.budget?.dropped).toEqual(["loose"]);
    expect(plan.budget?.overBudget).toBe(true);
    expect(plan.budget?.used).toBe(400 + plan.stats.metaTokens);
  });

  it("rejects a budget that is not a positive integer, naming the option", () => {
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      try {
        setup(fiveMcp, { definitionBudget: bad });
        expect.unreachable();
      } catch (error) {
        expect(isToolsiftError(error) && error.code).toBe("invalid_option");
        expect(String(error)).toMatch(/definitionBudget/);
      }
    }
    expect(() => setup(fiveMcp).prepare({ session: "s", definitionBudget: -1 })).toThrow(
      /definitionBudget/,
    );
  });

  describe("core tools that do not fit", () => {
    // keep order: smaller first, then name → "tiny"(100), "mid_a"(300) fit in 400; "mid_b", "big"
    // not (sizes well above the meta tools', so the budget is what activates deferral)
    const tools = [
      core("pinned", 200, { defer: "never" }),
      core("big", 500),
      core("tiny", 100),
      core("mid_a", 300),
      core("mid_b", 300),
      mcp("remote", 1000),
    ];
    const budget = (strategy: "reveal" | "bridge") => metaTokensOf(tools, { strategy }) + 200 + 400;

    it("are dropped by the documented priority and reported sorted", () => {
      const plan = setup(tools, { definitionBudget: budget("reveal") }).prepare({ session: "s" });
      expect(names(plan.loaded)).toEqual(["mid_a", "pinned", "tiny"]);
      expect(plan.budget).toEqual({
        limit: budget("reveal"),
        used: budget("reveal"),
        dropped: ["big", "mid_b"],
        overBudget: false,
      });
      expect(names(plan.deferred)).toEqual(["big", "mid_b", "remote"]);
    });

    it("become searchable, describable and callable like MCP tools", async () => {
      const disclosure = setup(tools, { definitionBudget: budget("reveal") });
      const found = await disclosure.execute({
        session: "s",
        name: "tool_search",
        arguments: { queries: ["big"] },
      });
      expect(found.revealed).toEqual(["big"]);
      // revealed, but there is no room: it stays deferred and is still reported as dropped
      const plan = disclosure.prepare({ session: "s" });
      expect(names(plan.loaded)).not.toContain("big");
      expect(plan.budget?.dropped).toEqual(["big", "mid_b"]);
      const direct = await disclosure.execute({ session: "s", name: "mid_b", arguments: {} });
      expect(direct.ran).toBe(true);
      expect(direct.revealed).toEqual(["mid_b"]);

      const bridged = setup(tools, {
        mode: "on",
        strategy: "bridge",
        definitionBudget: budget("bridge"),
      });
      const described = await bridged.execute({
        session: "b",
        name: "tool_describe",
        arguments: { names: ["big"] },
      });
      expect(described.isError).toBeFalsy();
      const run = await bridged.execute({
        session: "b",
        name: "tool_call",
        arguments: { name: "big", arguments: {} },
      });
      expect(run.ran).toBe(true);
      expect(run.tool).toBe("big");
      // a kept core tool is still refused through the bridge
      const kept = await bridged.execute({
        session: "b",
        name: "tool_call",
        arguments: { name: "tiny", arguments: {} },
      });
      expect(kept.errorCode).toBe("call_directly");
      expect(() => bridged.requireTools(["big"], { loaded: true })).toThrow(/would be deferred/);
    });
  });

  it("promotes the newest reveals that fit, in reveal order; older ones stay deferred", async () => {
    const tools = [core("home", 40), ...["r1", "r2", "r3", "r4"].map((name) => mcp(name, 100))];
    const limit = metaTokensOf(tools) + 40 + 250;
    const disclosure = setup(tools, { mode: "on", definitionBudget: limit });
    disclosure.store.reveal("s", ["r3", "r1", "r2"]);
    const plan = disclosure.prepare({ session: "s" });
    expect(names(plan.loaded)).toEqual(["home", "r1", "r2"]);
    expect(plan.budget).toMatchObject({ dropped: ["r3"], overBudget: false });
    expect(plan.budget?.used).toBe(limit - 50);
    const outcome = await disclosure.execute({ session: "s", name: "r3", arguments: { id: "x" } });
    expect(outcome.ran).toBe(true);
  });

  it("gives byte-identical plans for equal inputs, and keys the cache on the budget", () => {
    const tools = [core("x", 60), core("y", 10), mcp("m1", 100), mcp("m2", 100)];
    const first = setup(tools, { definitionBudget: 300 });
    const second = setup(tools, { definitionBudget: 300 });
    first.store.reveal("s", ["m2", "m1"]);
    second.store.reveal("s", ["m2", "m1"]);
    expect(JSON.stringify(first.prepare({ session: "s" }))).toBe(
      JSON.stringify(second.prepare({ session: "s" })),
    );
    const wider = first.prepare({ session: "s", definitionBudget: 1_000 });
    expect(wider.budget?.limit).toBe(1_000);
    expect(first.prepare({ session: "s" }).budget?.limit).toBe(300);
  });

  it("property: meta + loaded tokens fit unless pinned and meta tools alone exceed the budget", () => {
    const kinds = ["pinned", "core", "mcp", "always"] as const;
    const toolArb = fc.record({
      kind: fc.constantFrom(...kinds),
      size: fc.integer({ min: 1, max: 300 }),
    });
    fc.assert(
      fc.property(
        fc.array(toolArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 2_500 }),
        fc.record({
          mode: fc.constantFrom("auto", "on") as fc.Arbitrary<"auto" | "on">,
          strategy: fc.constantFrom("reveal", "bridge") as fc.Arbitrary<"reveal" | "bridge">,
          listing: fc.boolean(),
          nativeSearch: fc.boolean(),
        }),
        fc.array(fc.nat(11), { maxLength: 8 }),
        (specs, limit, settings, reveals) => {
          const tools = specs.map(({ kind, size }, index) => {
            const name = `t${index}`;
            if (kind === "mcp") return mcp(name, size);
            if (kind === "always") return core(name, size, { defer: "always" });
            return core(name, size, kind === "pinned" ? { defer: "never" } : {});
          });
          const disclosure = setup(tools, { ...settings, definitionBudget: limit });
          disclosure.store.reveal(
            "s",
            reveals.map((index) => `t${index % specs.length}`),
          );
          const plan = disclosure.prepare({ session: "s" });
          const budget = plan.budget;
          if (!budget) throw new Error("a budget was set, so the plan must report it");
          const loaded = new Set(names(plan.loaded));
          const pinned = tools.filter((tool) => tool.defer === "never");
          for (const tool of pinned) expect(loaded.has(tool.name)).toBe(true);
          const pinnedTokens = pinned.reduce((sum, tool) => sum + sized(tool.description), 0);
          const used = [...plan.loaded, ...plan.metaTools].reduce(
            (sum, tool) => sum + sized(definitionText(tool)),
            0,
          );
          expect(budget.used).toBe(used);
          expect(budget.overBudget).toBe(used > limit);
          if (used > limit) expect(pinnedTokens + plan.stats.metaTokens).toBeGreaterThan(limit);
          expect(budget.dropped).toEqual([...budget.dropped].sort());
          for (const name of budget.dropped) expect(loaded.has(name)).toBe(false);
          expect(plan.loaded.length + plan.deferred.length).toBe(tools.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
