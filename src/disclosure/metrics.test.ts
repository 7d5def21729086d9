import { describe, expect, it } from "vitest";
import { createResultBudgetTracker } from "../budget/index.js";
import { arrayCatalog, coreTool, substringSearch } from "./__fixtures__/tools.js";
import { createDisclosure } from "./create-disclosure.js";

describe("metrics keyed by tool name", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty"];

  it("count tools named like Object.prototype members as ordinary keys", async () => {
    const tools = names.map((name) =>
      coreTool(name, { handler: () => "ok", inputSchema: { type: "object" } }),
    );
    const catalog = arrayCatalog(tools);
    const disclosure = createDisclosure({ catalog, search: substringSearch(catalog), mode: "off" });
    for (const name of [...names, "__proto__"]) {
      await disclosure.execute({ session: "s", name, arguments: {} });
    }
    const { calls } = disclosure.metrics();
    expect(Object.getPrototypeOf(calls)).toBe(null);
    expect(Object.keys(calls).sort()).toEqual([...names].sort());
    expect(calls.__proto__).toBe(2);
    expect(calls.constructor).toBe(1);
    expect(calls.toString).toBe(1);
  });

  it("record result tokens per tool the same way in the budget tracker", () => {
    const tracker = createResultBudgetTracker({ totalResults: 1_000 });
    for (const name of names) tracker.record(name, 10);
    tracker.record("__proto__", 5);
    const { byTool } = tracker.snapshot();
    expect(Object.keys(byTool).sort()).toEqual([...names].sort());
    expect(byTool.__proto__).toBe(15);
    expect(byTool.constructor).toBe(10);
  });
});
