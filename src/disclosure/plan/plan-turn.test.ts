import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { DisclosureOptions } from "../types.js";

function setup(tools: ToolDefinition[], options: Partial<DisclosureOptions> = {}) {
  const catalog = arrayCatalog(tools);
  return createDisclosure({ catalog, search: substringSearch(catalog), ...options });
}

const many = (count: number) =>
  Array.from({ length: count }, (_, index) => mcpTool(`t${String(index).padStart(3, "0")}`));
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

describe("activation", () => {
  it("off loads every visible tool and emits no meta tools", () => {
    const plan = setup(many(40), { mode: "off" }).prepare({ session: "s" });
    expect(plan.active).toBe(false);
    expect(plan.loaded).toHaveLength(40);
    expect(plan.metaTools).toEqual([]);
    expect(plan.system).toBe("");
  });

  it("on defers even a single MCP tool, but not when nothing is deferrable", () => {
    expect(
      setup([mcpTool("a"), coreTool("b")], { mode: "on" }).prepare({ session: "s" }).active,
    ).toBe(true);
    const plan = setup([coreTool("a"), coreTool("b")], { mode: "on" }).prepare({ session: "s" });
    expect(plan.active).toBe(false);
    expect(plan.reason).toMatch(/no deferrable/);
  });

  it.each([
    [14, false],
    [15, true],
    [16, true],
  ])("auto by tool count: %i tools → active %s (default threshold 15)", (count, active) => {
    const plan = setup(many(count)).prepare({ session: "s" });
    expect(plan.active).toBe(active);
    expect(plan.loaded.length + plan.deferred.length).toBe(count);
  });

  it("auto counts visible core tools toward the tool threshold", () => {
    const tools = [
      ...many(10),
      ...Array.from({ length: 5 }, (_, index) => coreTool(`core${index}`)),
    ];
    expect(setup(tools).prepare({ session: "s" }).active).toBe(true);
  });

  // each tool costs exactly 10 tokens with this counter, so 1,000 tools-worth fill 10,000 tokens
  const tenEach = (text: string) => (text.startsWith("{") ? 10 : Math.ceil(text.length / 4));
  it.each([
    [99, false], // 9.9%
    [100, true], // 10%
    [101, true], // 10.1%
  ])(
    "auto by context share: %i tools of 10 tokens in a 10,000 window → active %s",
    (count, active) => {
      const plan = setup(many(count), {
        countTokens: tenEach,
        auto: { contextShare: 0.1 },
      }).prepare({
        session: "s",
        contextWindow: 10_000,
      });
      expect(plan.stats.deferrableTokens).toBe(count * 10);
      expect(plan.active).toBe(active);
    },
  );

  it("uses the 10% share by default when a context window is known", () => {
    const disclosure = setup(many(99), { countTokens: tenEach });
    expect(disclosure.prepare({ session: "s", contextWindow: 10_000 }).active).toBe(false);
    expect(disclosure.prepare({ session: "s", contextWindow: 9_900 }).active).toBe(true);
  });

  it("with both thresholds configured, either one activates", () => {
    const auto = { toolCount: 50, contextShare: 0.5 };
    const disclosure = setup(many(20), { countTokens: tenEach, auto });
    expect(disclosure.prepare({ session: "s", contextWindow: 1_000 }).active).toBe(false);
    expect(disclosure.prepare({ session: "s", contextWindow: 400 }).active).toBe(true);
    expect(
      setup(many(50), { countTokens: tenEach, auto }).prepare({ session: "s", contextWindow: 1e6 })
        .active,
    ).toBe(true);
  });

  it("rejects bad options with a message naming the option and the fix", () => {
    expect(() => setup([], { auto: { contextShare: 10 } })).toThrow(
      /auto.contextShare.*between 0 and 1/,
    );
    expect(() => setup([], { mode: "sometimes" as never })).toThrow(/mode/);
    expect(() => setup([]).prepare({ session: "s", contextWindow: -1 })).toThrow(/contextWindow/);
  });
});

describe("classification", () => {
  const tools = [
    mcpTool("read_file"),
    mcpTool("gh_list_prs"),
    mcpTool("gh_get_pr"),
    mcpTool("slack_send"),
    mcpTool("pinned", "srv", { defer: "never" }),
    coreTool("bash"),
    coreTool("todo", { defer: "always" }),
  ];

  it("keeps core tools, defer:never and never-defer names and globs loaded", () => {
    const plan = setup(tools, { mode: "on", neverDefer: ["read_file", "gh_*"] }).prepare({
      session: "s",
    });
    expect(names(plan.loaded)).toEqual(["bash", "gh_get_pr", "gh_list_prs", "pinned", "read_file"]);
    expect(names(plan.deferred)).toEqual(["slack_send", "todo"]);
  });

  it("a glob star also matches names containing slashes", () => {
    const plan = setup([mcpTool("fs/read"), mcpTool("x")], {
      mode: "on",
      neverDefer: ["fs*"],
    }).prepare({ session: "s" });
    expect(names(plan.loaded)).toEqual(["fs/read"]);
  });

  it("never defers the meta tools and shows a catalog tool that takes their name qualified", () => {
    const plan = setup(tools, { mode: "on", strategy: "bridge" }).prepare({ session: "s" });
    expect(names(plan.metaTools)).toEqual(["tool_search", "tool_describe", "tool_call"]);
    expect(names(plan.deferred)).not.toContain("tool_search");
    const warnings: string[] = [];
    const clash = setup([mcpTool("tool_call")], { mode: "on", onWarning: (w) => warnings.push(w) });
    expect(names(clash.prepare({ session: "s" }).deferred)).toEqual(["srv_tool_call"]);
    expect(warnings).toEqual([expect.stringMatching(/"tool_call".*"srv_tool_call"/)]);
    const renamed = setup([mcpTool("tool_call")], {
      mode: "on",
      metaToolNames: { call: "run_tool" },
    });
    expect(names(renamed.prepare({ session: "s" }).deferred)).toEqual(["tool_call"]);
  });

  it("hidden tools are not planned at all", () => {
    const plan = setup(tools, { mode: "off", isVisible: (tool) => tool.name !== "bash" }).prepare({
      session: "s",
    });
    expect(names(plan.loaded)).not.toContain("bash");
  });
});

describe("Hermes regression guard: no code path drops a core tool", () => {
  const core = [
    coreTool("exec"),
    coreTool("read_file"),
    mcpTool("clarify", "srv", { defer: "never" }),
  ];
  const deferrable = [...many(30), coreTool("todo", { defer: "always" })];

  it("an isolated turn with the most restrictive settings still loads every core tool", () => {
    const disclosure = setup([...core, ...deferrable], { neverDefer: ["read_file"] });
    const plan = disclosure.prepare({
      session: "cron-isolated",
      mode: "on",
      strategy: "bridge",
      nativeSearch: true,
      contextWindow: 1,
      listing: { maxTokens: 1 },
      auto: { toolCount: 0, contextShare: 0.0001 },
      neverDefer: [],
    });
    expect(plan.active).toBe(true);
    // read_file has no server, so it is core even though this turn clears the never-defer list
    expect(names(plan.loaded)).toEqual(["clarify", "exec", "read_file"]);
    expect(plan.deferred).toHaveLength(31);
  });

  it("property: every visible core tool is loaded whatever the settings and reveals", () => {
    const allTools = [...core, coreTool("read_file2"), ...deferrable];
    fc.assert(
      fc.property(
        fc.record({
          mode: fc.constantFrom("off", "on", "auto"),
          strategy: fc.constantFrom("reveal", "bridge"),
          nativeSearch: fc.boolean(),
          listing: fc.boolean(),
          contextWindow: fc.integer({ min: 1, max: 1_000_000 }),
          neverDefer: fc.subarray(["t001", "t0*", "nothing"]),
        }),
        fc.subarray(allTools.map((tool) => tool.name)),
        fc.func(fc.boolean()),
        (settings, revealed, visibleOracle) => {
          const hidden = new Set(
            allTools.filter((tool) => visibleOracle(tool.name)).map((tool) => tool.name),
          );
          const disclosure = setup(allTools, { isVisible: (tool) => !hidden.has(tool.name) });
          disclosure.store.reveal("s", revealed);
          const plan = disclosure.prepare({ session: "s", ...settings });
          const loaded = new Set(names(plan.loaded));
          for (const tool of [...core, allTools[3] as ToolDefinition]) {
            if (!hidden.has(tool.name)) expect(loaded.has(tool.name)).toBe(true);
          }
          for (const name of loaded) expect(hidden.has(name)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("determinism and caching", () => {
  it("property: the same inputs give byte-identical plans whatever the catalog order", () => {
    const tools = [
      ...many(20),
      coreTool("b"),
      coreTool("a"),
      mcpTool("z_mail", "mail"),
      mcpTool("a_mail", "mail"),
    ];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(tools, { minLength: tools.length, maxLength: tools.length }),
        fc.constantFrom("reveal", "bridge"),
        fc.boolean(),
        (shuffled, strategy, listing) => {
          const settings = { session: "s", strategy, listing, mode: "on" } as const;
          const left = setup(tools).prepare(settings);
          const right = setup(shuffled).prepare(settings);
          expect(JSON.stringify(right)).toBe(JSON.stringify(left));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("returns the cached plan while nothing changed and rebuilds when something did", () => {
    const catalog = arrayCatalog(many(20));
    const disclosure = createDisclosure({ catalog, search: substringSearch(catalog) });
    const first = disclosure.prepare({ session: "s" });
    expect(disclosure.prepare({ session: "s" })).toBe(first);
    expect(disclosure.prepare({ session: "other" })).toBe(first); // no reveals: same plan
    disclosure.store.reveal("s", ["t003"]);
    const revealed = disclosure.prepare({ session: "s" });
    expect(revealed).not.toBe(first);
    expect(names(revealed.loaded)).toEqual(["t003"]);
    catalog.tools = [...catalog.tools, mcpTool("t999")];
    expect(disclosure.prepare({ session: "other" })).toBe(first); // fingerprint not bumped yet
    catalog.version += 1;
    expect(disclosure.prepare({ session: "other" }).deferred).toHaveLength(21);
  });

  it("does not cache when visibility cannot be keyed", () => {
    let hidden = "t000";
    const catalog = arrayCatalog(many(20));
    const disclosure = createDisclosure({
      catalog,
      search: substringSearch(catalog),
      isVisible: (tool) => tool.name !== hidden,
    });
    expect(names(disclosure.prepare({ session: "s" }).deferred)).not.toContain("t000");
    hidden = "t001";
    expect(names(disclosure.prepare({ session: "s" }).deferred)).toContain("t000");
  });
});

describe("reveal strategy", () => {
  it("appends revealed tools after the core tools in reveal order, keeping the prefix", () => {
    const disclosure = setup([coreTool("bash"), ...many(20)]);
    const before = disclosure.prepare({ session: "s" });
    disclosure.store.reveal("s", ["t010", "t002"]);
    const after = disclosure.prepare({ session: "s" });
    expect(names(after.loaded)).toEqual(["bash", "t010", "t002"]);
    expect(JSON.stringify(after.metaTools)).toBe(JSON.stringify(before.metaTools));
    expect(names(after.deferred)).not.toContain("t010");
    expect(after.stats.revealed).toBe(2);
  });

  it("bridge never changes the loaded list; native search loads only core tools and emits no meta tools", () => {
    const disclosure = setup([coreTool("bash"), ...many(20)]);
    disclosure.store.reveal("s", ["t010"]);
    expect(names(disclosure.prepare({ session: "s", strategy: "bridge" }).loaded)).toEqual([
      "bash",
    ]);
    const native = disclosure.prepare({ session: "s", nativeSearch: true });
    expect(names(native.loaded)).toEqual(["bash"]);
    expect(native.metaTools).toEqual([]);
    expect(native.deferred).toHaveLength(20);
    expect(native.deferred.every((view) => view.shown === "native" && view.tool.inputSchema)).toBe(
      true,
    );
  });
});
