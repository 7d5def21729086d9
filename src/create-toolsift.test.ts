import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../test/shared-dir.js";
import { createSpillStore } from "./budget/index.js";
import type { ToolDefinition } from "./catalog/index.js";
import { loadCatalogPaths } from "./catalog/node.js";
import { createToolSift } from "./create-toolsift.js";
import { ToolsiftError } from "./errors.js";
import { o200kCounter, type TokenCounter } from "./tokens/index.js";

const echo = (name: string, server?: string, description = `Tool ${name}.`): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
  handler: (args) => `ran ${name} with ${JSON.stringify(args)}`,
  // a host tool without a server is core only because it says so
  ...(server ? { server } : { core: true }),
});

const tools: ToolDefinition[] = [
  echo("read_file", undefined, "Read a file from disk."),
  echo("create_issue", "github", "Create a new issue in a GitHub repository."),
  echo("delete_repository", "github", "Delete a GitHub repository permanently."),
  echo("list_issues", "github", "List the issues of a GitHub repository."),
  echo("send_message", "slack", "Send a message to a Slack channel."),
  {
    ...echo("dump_logs", "ops", "Dump the full server logs."),
    handler: () => "log line with some words in it\n".repeat(4_000),
  },
];

describe("createToolSift", () => {
  it("onCall runs calls of tools without a handler, after validation, repair and hooks", async () => {
    const seen: unknown[] = [];
    const sift = createToolSift({
      tools: [
        {
          name: "add",
          server: "math",
          description: "Add two numbers.",
          inputSchema: {
            type: "object",
            properties: { a: { type: "number" }, b: { type: "number" } },
            required: ["a", "b"],
          },
        },
        { ...echo("local", undefined), handler: () => "own handler" },
      ],
      disclosure: {
        mode: "off",
        hooks: {
          before: [(event) => (event.arguments.b === 13 ? { deny: "unlucky" } : undefined)],
        },
      },
      budget: { perToolResult: 50 },
      tokens: "estimate",
      onCall: async (call) => {
        seen.push({
          tool: call.tool.server,
          name: call.name,
          arguments: call.arguments,
          session: call.session,
          aborted: call.signal.aborted,
        });
        return call.name === "add"
          ? { sum: Number(call.arguments.a) + Number(call.arguments.b), pad: "x".repeat(2_000) }
          : "unexpected";
      },
    });
    // "2" is repaired to 2 before the dispatcher sees it; the result is budgeted like a handler's
    const outcome = await sift.execute({ session: "s", name: "add", arguments: { a: "2", b: 3 } });
    expect(outcome.ran).toBe(true);
    expect(seen).toEqual([
      { tool: "math", name: "add", arguments: { a: 2, b: 3 }, session: "s", aborted: false },
    ]);
    expect(JSON.stringify(outcome.content).length).toBeLessThan(1_000);
    expect(JSON.stringify(outcome.content)).toContain('\\"sum\\":5');
    const denied = await sift.execute({ session: "s", name: "add", arguments: { a: 1, b: 13 } });
    expect(denied).toMatchObject({ ran: false, errorCode: "denied" });
    const local = await sift.execute({ session: "s", name: "local", arguments: {} });
    expect(local.content[0]).toMatchObject({ text: "own handler" });
    const invalid = await sift.execute({ session: "s", name: "add", arguments: { a: 1 } });
    expect(invalid).toMatchObject({ ran: false, errorCode: "invalid_arguments" });
    expect(seen).toHaveLength(1);
  });

  it("qualifies a name two servers share, with one warning, unless duplicates is error", () => {
    const warnings: string[] = [];
    const shared = [echo("create_issue", "github"), echo("create_issue", "gitlab")];
    const sift = createToolSift({ tools: shared, onWarning: (text) => warnings.push(text) });
    expect(sift.catalog.list().map((tool) => tool.name)).toEqual([
      "github/create_issue",
      "gitlab/create_issue",
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(/^1 tool name\(s\) are served by more than one server/),
    ]);
    expect(() => createToolSift({ tools: shared, duplicates: "error" })).toThrow(/same name/);
  });

  it("onCall gets an abort signal that fires on the time limit", async () => {
    let aborted: AbortSignal | undefined;
    const sift = createToolSift({
      tools: [{ name: "slow", server: "s", description: "", inputSchema: { type: "object" } }],
      disclosure: { mode: "off", timeoutMs: 20 },
      onCall: (call) => {
        aborted = call.signal;
        return new Promise(() => {});
      },
    });
    const outcome = await sift.execute({ session: "s", name: "slow", arguments: {} });
    expect(outcome.isError).toBe(true);
    expect(outcome.content[0]).toMatchObject({
      text: expect.stringMatching(/timed out after 20 ms/),
    });
    expect(aborted?.aborted).toBe(true);
  });

  it("runs the reveal loop: search, then the found tool is loaded and callable", async () => {
    const sift = createToolSift({ tools, disclosure: { mode: "on" }, tokens: "estimate" });
    const first = sift.prepare({ session: "s1" });
    expect(first.active).toBe(true);
    expect(first.loaded.map((tool) => tool.name)).toEqual(["read_file"]);
    expect(first.metaTools.map((tool) => tool.name)).toEqual(["tool_search"]);

    const found = await sift.execute({
      session: "s1",
      name: "tool_search",
      arguments: { queries: ["open a github issue"] },
    });
    expect(found.isError).toBeFalsy();
    expect(found.revealed).toContain("create_issue");

    const second = sift.prepare({ session: "s1" });
    expect(second.loaded.map((tool) => tool.name)).toContain("create_issue");
    const outcome = await sift.execute({
      session: "s1",
      name: "create_issue",
      arguments: { text: "bug" },
    });
    expect(outcome.ran).toBe(true);
    expect(outcome.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("ran create_issue"),
    });
    // another session has revealed nothing
    expect(sift.prepare({ session: "s2" }).loaded.map((tool) => tool.name)).toEqual(["read_file"]);
  });

  it("enforces the policy in search, in plans and at call time, and explains it", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "on" },
      policy: { rules: [{ label: "safety", deny: ["*delete*"] }] },
      tokens: "estimate",
    });
    expect(sift.search("delete repository").hits.map((hit) => hit.name)).not.toContain(
      "delete_repository",
    );
    const plan = sift.prepare({ session: "s" });
    expect(plan.deferred.map((view) => view.name)).not.toContain("delete_repository");
    const hidden = await sift.execute({ session: "s", name: "delete_repository", arguments: {} });
    const unknown = await sift.execute({ session: "s", name: "no_such_tool", arguments: {} });
    expect(hidden.ran).toBe(false);
    expect(hidden.isError).toBe(true);
    // a hidden tool's error is the unknown tool's error: its existence does not leak
    expect(hidden.errorCode).toBe(unknown.errorCode);
    const decision = sift.explain("delete_repository");
    expect(decision).toMatchObject({
      visible: false,
      layer: "safety",
      rule: "deny",
      selector: "*delete*",
    });
    expect(() => sift.requireTools(["delete_repository"])).toThrow(/hidden by policy/);
  });

  it("cuts an oversized result to the per-result budget and lets the model page the rest", async () => {
    const spill = createSpillStore();
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 300, spill },
    });
    const outcome = await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    const text = outcome.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n");
    expect(sift.tokenCounter.count(text)).toBeLessThanOrEqual(300);
    const id = /spill_[A-Za-z0-9_]+/.exec(text)?.[0];
    expect(id).toBeDefined();
    const page = await sift.execute({
      session: "s",
      name: "tool_result_read",
      arguments: { id, page: 2 },
    });
    expect(page.isError).toBeFalsy();
    expect(page.structuredContent).toMatchObject({ id, page: 2 });
  });

  it("reads a spilled result only from the session whose call stored it", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 300, spill: createSpillStore() },
    });
    const outcome = await sift.execute({ session: "a", name: "dump_logs", arguments: {} });
    const text = outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const id = /spill_\w+/.exec(text)?.[0];
    expect(id).toBeDefined();
    const read = (session: string) =>
      sift.execute({ session, name: "tool_result_read", arguments: { id } });
    expect((await read("b")).isError).toBe(true);
    expect((await read("a")).isError).toBeFalsy();
    sift.endSession("a");
    expect((await read("a")).isError).toBe(true);
  });

  it("pages a spilled result to its end: every page says whether more follows", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 300, spill: createSpillStore() },
    });
    const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
      outcome.content.map((block) => block.text ?? "").join("\n");
    const outcome = await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    const note = /stored as (spill_\w+): (\d+) page\(s\)/.exec(textOf(outcome));
    expect(note).not.toBeNull();
    const [, id, announced] = note as RegExpExecArray;
    const pages: string[] = [];
    for (let page = 1; page < 200; page += 1) {
      const read = await sift.execute({
        session: "s",
        name: "tool_result_read",
        arguments: { id, page },
      });
      const text = textOf(read);
      const more = /\n\[page \d+ of about \d+: read page (\d+) for more\]$/.exec(text);
      pages.push(more ? text.slice(0, more.index) : text);
      if (!more) break;
      expect(Number(more[1])).toBe(page + 1);
    }
    expect(pages.join("")).toBe("log line with some words in it\n".repeat(4_000));
    expect(Math.abs(pages.length - Number(announced))).toBeLessThanOrEqual(1);
  });

  it("tracks the loop total and reports when it is hit", async () => {
    const hits: string[] = [];
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: {
        perToolResult: 500,
        totalResults: 600,
        onBudgetHit: (event) => hits.push(event.kind),
      },
      tokens: "estimate",
    });
    await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    expect(sift.results.used).toBeLessThanOrEqual(600);
    expect(hits).toContain("total");
    sift.results.reset();
    expect(sift.results.used).toBe(0);
  });

  it("tells each call's own onBudgetHit of its cut, never another concurrent call's", async () => {
    const sift = createToolSift({
      tools: [
        ...tools,
        {
          name: "small_echo",
          description: "Echoes a little text.",
          inputSchema: { type: "object" },
          core: true,
          // waits so that the big call's budget runs while this call is still in flight
          handler: async () => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return "short";
          },
        },
      ],
      disclosure: { mode: "off" },
      budget: { perToolResult: 500 },
      tokens: "estimate",
    });
    const big: number[] = [];
    const small: number[] = [];
    await Promise.all([
      sift.execute({
        session: "s",
        name: "small_echo",
        arguments: {},
        onBudgetHit: (hit) => small.push(hit.limit),
      }),
      sift.execute({
        session: "s",
        name: "dump_logs",
        arguments: {},
        onBudgetHit: (hit) => big.push(hit.limit),
      }),
    ]);
    expect(big).toEqual([500]);
    expect(small).toEqual([]);
  });

  it("keeps the loop total per session: one session's results never starve another's", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 500, totalResults: 600 },
      tokens: "estimate",
    });
    const size = (outcome: Awaited<ReturnType<typeof sift.execute>>) =>
      sift.tokenCounter.count(
        outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
      );
    await sift.execute({ session: "a", name: "dump_logs", arguments: {} });
    const starved = await sift.execute({ session: "a", name: "dump_logs", arguments: {} });
    const fresh = await sift.execute({ session: "b", name: "dump_logs", arguments: {} });
    expect(size(fresh)).toBeGreaterThan(size(starved));
    expect(sift.results.snapshot("a").remaining).toBeLessThan(sift.results.snapshot("b").remaining);
    // a new loop in b leaves a's count alone
    sift.results.reset("b");
    expect(sift.results.snapshot("b").used).toBe(0);
    expect(sift.results.snapshot("a").used).toBeGreaterThan(0);
    expect(sift.results.used).toBe(sift.results.snapshot("a").used);
  });

  it("passes budget.toolDefinitions to disclosure as the definitions budget", async () => {
    // with chars/4 the six tools take 606 tokens, the search tool 519 and read_file 92
    const sift = createToolSift({
      tools,
      budget: { toolDefinitions: 600 },
      disclosure: { directory: false }, // keeps the token arithmetic below exact
      tokens: "estimate",
    });
    const plan = sift.prepare({ session: "s" });
    // six tools stay below the tool-count threshold: only the budget activates disclosure here
    expect(plan.active).toBe(true);
    expect(plan.reason).toMatch(/606 tokens, over the definitions budget of 600/);
    expect(plan.budget).toEqual({
      limit: 600,
      used: 519,
      dropped: ["read_file"],
      overBudget: false,
    });
    const found = await sift.execute({ session: "s", name: "read_file", arguments: { text: "a" } });
    expect(found.ran).toBe(true);
    // a per-turn budget overrides the option: at 700 all six tools fit and nothing is deferred
    expect(sift.prepare({ session: "s", definitionBudget: 700 }).loaded).toHaveLength(6);
    expect(sift.prepare({ session: "s", definitionBudget: 10_000 }).active).toBe(false);
    for (const bad of [0, 2.5, -1]) {
      expect(() => createToolSift({ budget: { toolDefinitions: bad } })).toThrow(
        /budget\.toolDefinitions/,
      );
    }
  });

  it("returns an MCP-shaped outcome when the summariser answers with a string", async () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "off" },
      budget: { perToolResult: 200, summarize: async () => "4,000 log lines, no errors" },
      tokens: "estimate",
    });
    const outcome = await sift.execute({ session: "s", name: "dump_logs", arguments: {} });
    expect(outcome.content).toEqual([{ type: "text", text: "4,000 log lines, no errors" }]);
    expect(Object.keys(outcome)).not.toContain("0");
  });

  it("rejects a bad token counter option with a clear error", () => {
    expect(() => createToolSift({ tokens: "bpe" as never })).toThrow(ToolsiftError);
  });
});

describe("createToolSift on the 20 real catalogs", () => {
  let real: ToolDefinition[] = [];
  beforeAll(async () => {
    const loaded = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
      duplicates: "qualify",
    });
    real = [...loaded.tools];
  });

  it("keeps the first turn small and returns the same plan object while nothing changes", () => {
    const sift = createToolSift({ tools: real, tokens: "estimate" });
    const plan = sift.prepare({ session: "s", contextWindow: 200_000 });
    expect(plan.active).toBe(true);
    expect(plan.stats.visible).toBe(1_371);
    const firstTurn = plan.stats.loadedTokens + plan.stats.metaTokens + plan.stats.listingTokens;
    expect(firstTurn / plan.stats.allTokens).toBeLessThan(0.01);
    expect(sift.prepare({ session: "s", contextWindow: 200_000 })).toBe(plan);
    sift.catalog.add(echo("brand_new_tool", "extra"));
    const next = sift.prepare({ session: "s", contextWindow: 200_000 });
    expect(next).not.toBe(plan);
    expect(next.stats.visible).toBe(1_372);
  });

  it("fits the first turn into budget.toolDefinitions (8,000 o200k tokens)", () => {
    const asHostTools = real.map(({ server: _server, ...tool }) => ({ ...tool, core: true }));
    // o200k over 1,371 definitions is the slow part: count each distinct text once
    const memo = new Map<string, number>();
    const counted: TokenCounter = {
      name: o200kCounter.name,
      count: (text) => memo.get(text) ?? memo.set(text, o200kCounter.count(text)).get(text) ?? 0,
    };
    const figures: string[] = [];
    for (const [label, catalog] of [
      ["MCP tools", real],
      ["same tools declared core by the host", asHostTools],
    ] as const) {
      const turn = (budget?: number) => {
        const sift = createToolSift({
          tools: catalog,
          tokens: counted,
          ...(budget !== undefined ? { budget: { toolDefinitions: budget } } : {}),
        });
        const plan = sift.prepare({ session: "s", contextWindow: 200_000, listing: true });
        return { plan, tokens: plan.stats.loadedTokens + plan.stats.metaTokens };
      };
      const free = turn();
      const fitted = turn(8_000);
      figures.push(
        `${label}: first turn ${free.tokens} tokens (${free.plan.loaded.length} loaded) without a budget → ` +
          `${fitted.tokens} with 8,000 (${fitted.plan.loaded.length} loaded, ${fitted.plan.budget?.dropped.length} dropped)`,
      );
      expect(fitted.tokens).toBeLessThanOrEqual(8_000);
      expect(fitted.plan.budget).toMatchObject({
        limit: 8_000,
        used: fitted.tokens,
        overBudget: false,
      });
      if (label === "MCP tools") expect(fitted.tokens).toBe(free.tokens);
      else {
        expect(free.plan.active).toBe(false);
        expect(free.tokens).toBe(free.plan.stats.allTokens);
        expect(fitted.plan.loaded.length + (fitted.plan.budget?.dropped.length ?? 0)).toBe(1_371);
      }
    }
    console.log(figures.join("\n"));
  });
});

describe("sift.subscribe", () => {
  it("reports catalog, policy, call and budget-reset changes, and stops after unsubscribe", async () => {
    const sift = createToolSift({ tools, disclosure: { mode: "on" } });
    const seen: number[] = [];
    const unsubscribe = sift.subscribe(() => seen.push(sift.version));
    sift.catalog.add(echo("lint_code", "ci"));
    sift.policy.setLayer({ label: "safety", deny: ["lint_*"] });
    await sift.execute({ session: "s", name: "tool_search", arguments: { query: "file" } });
    sift.results.reset();
    expect(seen).toEqual([1, 2, 3, 4]);
    unsubscribe();
    sift.catalog.remove("lint_code");
    expect(seen).toHaveLength(4);
    expect(sift.version).toBe(5);
  });
});
