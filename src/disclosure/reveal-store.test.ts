import { describe, expect, it } from "vitest";
import { cpuMs } from "../../test/cpu-time.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "./__fixtures__/tools.js";
import { createDisclosure } from "./create-disclosure.js";
import { createMemoryRevealStore } from "./reveal-store.js";
import { revealsFromTranscript } from "./transcript-reveals.js";

describe("createMemoryRevealStore", () => {
  it("keeps reveals per session in reveal order, without duplicates", () => {
    const store = createMemoryRevealStore();
    expect(store.reveal("a", ["x", "y", "x"])).toEqual(["x", "y"]);
    expect(store.reveal("a", ["y", "z"])).toEqual(["z"]);
    expect(store.revealed("a")).toEqual(["x", "y", "z"]);
    expect(store.revealed("b")).toEqual([]);
    expect(store.version("b")).toBe(0);
  });

  it("changes the version on every change and never reuses one", () => {
    const store = createMemoryRevealStore({ maxSessions: 1 });
    store.reveal("a", ["x"]);
    const first = store.version("a");
    store.reveal("a", ["x"]);
    expect(store.version("a")).toBe(first);
    store.reveal("b", ["x"]); // evicts a
    store.reveal("a", ["x"]);
    expect(store.version("a")).not.toBe(first);
    expect(store.version("a")).toBeGreaterThan(0);
  });

  it("evicts the least recently used session past maxSessions", () => {
    const store = createMemoryRevealStore({ maxSessions: 2 });
    store.reveal("a", ["x"]);
    store.reveal("b", ["x"]);
    store.revealed("a"); // a is now more recent than b
    store.reveal("c", ["x"]);
    expect(store.revealed("b")).toEqual([]);
    expect(store.revealed("a")).toEqual(["x"]);
    expect(store.revealed("c")).toEqual(["x"]);
  });

  it("drops the earliest reveals past maxToolsPerSession", () => {
    const store = createMemoryRevealStore({ maxToolsPerSession: 3 });
    store.reveal("a", ["1", "2", "3"]);
    expect(store.reveal("a", ["4", "5"])).toEqual(["4", "5"]);
    expect(store.revealed("a")).toEqual(["3", "4", "5"]);
  });

  it("expires sessions after the TTL since their last use", () => {
    let time = 0;
    const store = createMemoryRevealStore({ ttlMs: 100, now: () => time });
    store.reveal("a", ["x"]);
    time = 90;
    expect(store.revealed("a")).toEqual(["x"]); // touched at 90
    time = 180;
    expect(store.revealed("a")).toEqual(["x"]);
    time = 281;
    expect(store.revealed("a")).toEqual([]);
    expect(store.version("a")).toBe(0);
  });

  it("exports and imports its state, keeping LRU order and skipping expired sessions", () => {
    let time = 0;
    const store = createMemoryRevealStore({ ttlMs: 1_000, now: () => time });
    store.reveal("old", ["o"]);
    time = 500;
    store.reveal("a", ["x", "y"]);
    store.reveal("b", ["z"]);
    const snapshot = JSON.parse(JSON.stringify(store.export()));
    time = 1_200; // "old" expired in the meantime
    const restored = createMemoryRevealStore({ ttlMs: 1_000, maxSessions: 1, now: () => time });
    restored.import(snapshot);
    expect(restored.revealed("a")).toEqual([]); // evicted: only the most recent one fits
    expect(restored.revealed("b")).toEqual(["z"]);
    const roomy = createMemoryRevealStore({ ttlMs: 1_000, now: () => time });
    roomy.import(snapshot);
    expect(roomy.revealed("a")).toEqual(["x", "y"]);
    expect(roomy.revealed("old")).toEqual([]);
  });

  it("refuses a malformed snapshot with a clear error", () => {
    const store = createMemoryRevealStore();
    expect(() => store.import({ format: "other" })).toThrow(/unknown format/);
    expect(() =>
      store.import({ format: "toolsift.reveals/1", sessions: [{ session: 1 }] }),
    ).toThrow(/sessions\[0\]/);
    expect(() => createMemoryRevealStore({ ttlMs: 0 })).toThrow(/ttlMs must be a positive number/);
  });

  it("reveals and imports tens of thousands of names in linear time (seconds before)", () => {
    const names = Array.from({ length: 60_000 }, (_, index) => `tool_${index}`);
    const store = createMemoryRevealStore({ maxToolsPerSession: 100_000 });
    const revealMs = cpuMs(() => {
      expect(store.reveal("a", names.slice(0, 50_000))).toHaveLength(50_000);
      expect(store.reveal("a", names)).toHaveLength(10_000);
    });
    const restored = createMemoryRevealStore({ maxToolsPerSession: 100_000 });
    const importMs = cpuMs(() => restored.import(store.export()));
    expect(restored.revealed("a")).toHaveLength(60_000);
    // CPU guards: 3.3 s and 4 s before, a few ms now
    expect(revealMs).toBeLessThan(1_000);
    expect(importMs).toBeLessThan(1_000);
  });

  it("reports only the names that survive the per-session cap of the same call", () => {
    const store = createMemoryRevealStore({ maxToolsPerSession: 3 });
    store.reveal("a", ["p", "q"]);
    expect(store.reveal("a", ["x", "y", "z", "w"])).toEqual(["y", "z", "w"]);
    expect(store.revealed("a")).toEqual(["y", "z", "w"]);
  });

  it("lets a session imported with a future touchedAt expire, and refuses NaN or Infinity", () => {
    let time = 1_000_000;
    const store = createMemoryRevealStore({ ttlMs: 1_000, now: () => time });
    const snapshot = (touchedAt: number) => ({
      format: "toolsift.reveals/1",
      sessions: [{ session: "s", tools: ["x"], touchedAt }],
    });
    store.import(snapshot(time + 1e12));
    expect(store.export().sessions[0]?.touchedAt).toBe(time);
    time += 2_000;
    expect(store.revealed("s")).toEqual([]);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => store.import(snapshot(bad))).toThrow(/touchedAt: finite number/);
    }
  });
});

describe("transcript rebuild", () => {
  const meta = new Set(["tool_search", "tool_describe", "tool_call"]);

  it("collects reveals from search results, outcomes and direct calls, in order", () => {
    const names = revealsFromTranscript(
      [
        { name: "tool_search", result: { structuredContent: { revealed: ["b", "a"] } } },
        { name: "c" },
        { name: "tool_call", result: {} },
        { tool: "d", route: "bridge" },
        { tool: "tool_search", route: "meta", revealed: ["e", "a"] },
        { name: "tool_describe" },
      ],
      meta,
    );
    expect(names).toEqual(["b", "a", "c", "e"]);
  });

  it("restoreSession re-reveals only visible deferrable tools, and the plan loads them", () => {
    const catalog = arrayCatalog([
      coreTool("bash"),
      ...["a", "b", "hidden"].map((name) => mcpTool(name)),
      ...Array.from({ length: 15 }, (_, i) => mcpTool(`x${i}`)),
    ]);
    const disclosure = createDisclosure({
      catalog,
      search: substringSearch(catalog),
      isVisible: (tool) => tool.name !== "hidden",
    });
    const restored = disclosure.restoreSession("s", [
      { name: "tool_search", result: { structuredContent: { revealed: ["b", "hidden", "gone"] } } },
      { name: "bash" },
      { name: "a" },
    ]);
    expect(restored).toEqual(["b", "a"]);
    expect(disclosure.prepare({ session: "s" }).loaded.map((tool) => tool.name)).toEqual([
      "bash",
      "b",
      "a",
    ]);
  });
});
