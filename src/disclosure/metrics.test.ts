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
    expect(new Map(Object.entries(calls))).toEqual(
      new Map([
        ["__proto__", 2],
        ["constructor", 1],
        ["toString", 1],
        ["hasOwnProperty", 1],
      ]),
    );
  });

  it("record result tokens per tool the same way in the budget tracker", () => {
    const tracker = createResultBudgetTracker({ totalResults: 1_000 });
    for (const name of names) tracker.record(name, 10);
    tracker.record("__proto__", 5);
    const { byTool } = tracker.snapshot();
    expect(new Map(Object.entries(byTool))).toEqual(
      new Map([
        ["__proto__", 15],
        ["constructor", 10],
        ["toString", 10],
        ["hasOwnProperty", 10],
      ]),
    );
  });

  it("report the plan cache's size, which stays at its bound however many settings are used", () => {
    const tools = Array.from({ length: 40 }, (_, index) => coreTool(`tool_${index}`));
    const catalog = arrayCatalog(tools);
    const disclosure = createDisclosure({ catalog, search: substringSearch(catalog), mode: "on" });
    for (let turn = 0; turn < 200; turn++) {
      disclosure.prepare({ session: `s${turn % 7}`, contextWindow: 50_000 + turn * 1_000 });
    }
    expect(disclosure.metrics().caches.plans).toEqual({ size: 64, limit: 64 });
  });
});
