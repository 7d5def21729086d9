import { describe, expect, it } from "vitest";
import { createToolSift } from "../../create-toolsift.js";

describe("keepMetaTools", () => {
  it("offers the meta tools in mode on with nothing deferrable, and a search answers", async () => {
    const sift = createToolSift({ tools: [], disclosure: { mode: "on", strategy: "bridge" } });
    expect(sift.prepare({ session: "s" }).metaTools).toEqual([]);
    const plan = sift.prepare({ session: "s", keepMetaTools: true });
    expect(plan.active).toBe(true);
    expect(plan.metaTools.map((tool) => tool.name)).toEqual([
      "tool_search",
      "tool_describe",
      "tool_call",
    ]);
    const outcome = await sift.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["echo"] },
      keepMetaTools: true,
    });
    expect(outcome.isError).not.toBe(true);
    expect(outcome.route).toBe("meta");
    // mode auto is not moved by it: nothing to defer means nothing to search
    expect(sift.prepare({ session: "s", mode: "auto", keepMetaTools: true }).active).toBe(false);
  });
});
