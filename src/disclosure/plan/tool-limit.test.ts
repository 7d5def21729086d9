import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { isToolsiftError } from "../../errors.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { DisclosureOptions } from "../types.js";

function setup(tools: ToolDefinition[], options: Partial<DisclosureOptions> = {}) {
  const catalog = arrayCatalog(tools);
  return createDisclosure({ catalog, search: substringSearch(catalog), ...options });
}

const numbered = (count: number, make: (name: string) => ToolDefinition, prefix = "t") =>
  Array.from({ length: count }, (_, index) => make(`${prefix}${String(index).padStart(3, "0")}`));
const sent = (plan: { loaded: readonly unknown[]; metaTools: readonly unknown[] }) =>
  plan.loaded.length + plan.metaTools.length;

describe("a provider's tool limit (maxTools)", () => {
  it("activates auto below every other threshold and keeps the request within the limit", () => {
    // 200 small host core tools, 5 of them pinned: nothing else would activate disclosure
    const tools = numbered(200, (name) => coreTool(name));
    const pinned = ["t000", "t001", "t002", "t003", "t004"];
    const disclosure = setup(tools, { neverDefer: pinned, auto: { toolCount: 10_000 } });
    expect(disclosure.prepare({ session: "s" }).active).toBe(false);
    const plan = disclosure.prepare({ session: "s", maxTools: 128 });
    expect(plan.active).toBe(true);
    expect(plan.reason).toMatch(/200 visible tools, over the provider's limit of 128/);
    expect(sent(plan)).toBe(128);
    for (const name of pinned) expect(plan.loaded.map((tool) => tool.name)).toContain(name);
    // the moved core tools are searchable and callable like any deferred tool
    expect(plan.deferred).toHaveLength(200 - 127);
  });

  it("promotes the newest reveals while slots remain", async () => {
    const disclosure = setup(
      numbered(300, (name) => mcpTool(name)),
      { maxTools: 10 },
    );
    disclosure.store.reveal(
      "s",
      numbered(20, (name) => mcpTool(name)).map((tool) => tool.name),
    );
    const plan = disclosure.prepare({ session: "s" });
    expect(sent(plan)).toBe(10);
    expect(plan.loaded.map((tool) => tool.name)).toEqual([
      "t011",
      "t012",
      "t013",
      "t014",
      "t015",
      "t016",
      "t017",
      "t018",
      "t019",
    ]);
  });

  it("throws too_many_tools with the counts and the fix when pinned tools alone pass it", () => {
    const tools = numbered(130, (name) => coreTool(name, { defer: "never" }));
    const error = (() => {
      try {
        setup([...tools, mcpTool("x")]).prepare({ session: "s", maxTools: 128 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isToolsiftError(error) && error.code).toBe("too_many_tools");
    expect((error as Error).message).toMatch(
      /130 pinned tools .* 1 meta tool\(s\) .* limit of 128 .* Pin at most 127/,
    );
  });

  it("throws in mode off rather than build a request the API rejects", () => {
    const disclosure = setup(
      numbered(129, (name) => mcpTool(name)),
      { mode: "off" },
    );
    expect(disclosure.prepare({ session: "s" }).loaded).toHaveLength(129);
    expect(() => disclosure.prepare({ session: "s", maxTools: 128 })).toThrow(
      /129 tools would be sent with disclosure off .* limit of 128 .* mode "auto" or "on"/,
    );
  });

  it("rejects a limit that is not a positive whole number", () => {
    expect(() => setup([mcpTool("a")]).prepare({ session: "s", maxTools: 0 })).toThrow(/maxTools/);
  });
});
