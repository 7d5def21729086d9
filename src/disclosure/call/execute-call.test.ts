import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import {
  arrayCatalog,
  coreTool,
  leakySearch,
  mcpTool,
  substringSearch,
  textOf,
} from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { BeforeCallEvent, DisclosureOptions } from "../types.js";

function setup(tools: ToolDefinition[], options: Partial<DisclosureOptions> = {}) {
  const catalog = arrayCatalog(tools);
  return createDisclosure({ catalog, search: substringSearch(catalog), mode: "on", ...options });
}

const issue = mcpTool("create_issue", "github", {
  description: "Create an issue.",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      owner: { type: "string" },
      state: { type: "string", enum: ["open", "closed"] },
      count: { type: "integer" },
      draft: { type: "boolean" },
    },
    required: ["owner"],
    additionalProperties: false,
  },
  handler: (args) => ({ content: [{ type: "text", text: `created ${JSON.stringify(args)}` }] }),
});
const tools = [
  coreTool("bash"),
  issue,
  mcpTool("list_prs", "github"),
  mcpTool("secret_tool", "vault"),
];

describe("bridge", () => {
  it("unwraps tool_call before any hook runs, so hooks see the real tool name", async () => {
    const seen: BeforeCallEvent[] = [];
    const after = vi.fn();
    const disclosure = setup(tools, {
      strategy: "bridge",
      hooks: { before: [(event) => void seen.push(event)], after: [after] },
    });
    const outcome = await disclosure.execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "create_issue", arguments: { owner: "me" } },
    });
    expect(outcome.isError).toBeUndefined();
    expect(textOf(outcome)).toBe('created {"owner":"me"}');
    expect(outcome.tool).toBe("create_issue");
    expect(outcome.route).toBe("bridge");
    expect(seen.map((event) => [event.name, event.route])).toEqual([["create_issue", "bridge"]]);
    expect(after.mock.calls[0]?.[0].name).toBe("create_issue");
  });

  it.each(["tool_call", "tool_search", "tool_describe"])(
    "refuses %s through the bridge (recursion guard)",
    async (target) => {
      const handler = vi.fn();
      const disclosure = setup([...tools, mcpTool("x", "srv", { handler })], {
        strategy: "bridge",
      });
      const outcome = await disclosure.execute({
        session: "s",
        name: "tool_call",
        arguments: { name: target, arguments: { name: "x" } },
      });
      expect(outcome.isError).toBe(true);
      expect(outcome.errorCode).toBe("bridge_recursion");
      expect(textOf(outcome)).toMatch(/meta tools are called directly/);
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it("refuses a core tool through the bridge and says to call it directly", async () => {
    const outcome = await setup(tools, { strategy: "bridge" }).execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "bash" },
    });
    expect(outcome.errorCode).toBe("call_directly");
    expect(textOf(outcome)).toMatch(/call it directly/);
    expect(outcome.ran).toBe(false);
  });

  it("repairs flattened and aliased bridge calls from small models", async () => {
    const disclosure = setup(tools, { strategy: "bridge" });
    const outcome = await disclosure.execute({
      session: "s",
      name: "tool_call",
      arguments: { tool_name: "create_issue", owner: "me" },
    });
    expect(outcome.isError).toBeUndefined();
    expect(outcome.repairs).toEqual([
      'tool name read from "tool_name"',
      "arguments read from fields beside the name",
    ]);
  });
});

describe("visibility", () => {
  const hideSecret = { isVisible: (tool: ToolDefinition) => tool.name !== "secret_tool" };

  it("a hidden tool cannot be called and its error is identical to an unknown tool's", async () => {
    // bridge: tool_call is offered only by a bridge plan
    const disclosure = setup(tools, { ...hideSecret, strategy: "bridge" });
    const hidden = await disclosure.execute({
      session: "s",
      name: "secret_tool",
      arguments: { id: "1" },
    });
    const unknown = await disclosure.execute({
      session: "s",
      name: "secret_toal",
      arguments: { id: "1" },
    });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toBe('Unknown tool "secret_tool". Search for the tool you need.');
    expect(textOf(unknown)).toBe('Unknown tool "secret_toal". Search for the tool you need.');
    expect(hidden.errorCode).toBe(unknown.errorCode);
    const bridged = await disclosure.execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "secret_tool" },
    });
    expect(textOf(bridged)).toBe(textOf(hidden));
  });

  it("a hidden tool never appears in search or describe, even with an engine that ignores the filter", async () => {
    const catalog = arrayCatalog(tools);
    const disclosure = createDisclosure({
      catalog,
      search: leakySearch(catalog),
      mode: "on",
      strategy: "bridge",
      listing: true,
      ...hideSecret,
    });
    const search = await disclosure.execute({
      session: "s",
      name: "tool_search",
      arguments: { queries: ["secret"] },
    });
    expect(JSON.stringify(search)).not.toContain("secret_tool");
    const describe = await disclosure.execute({
      session: "s",
      name: "tool_describe",
      arguments: { names: ["secret_tool"] },
    });
    expect(textOf(describe)).toBe('Unknown tool "secret_tool". Search for the tool you need.');
    expect(JSON.stringify(disclosure.prepare({ session: "s" }))).not.toContain("secret_tool");
  });

  it("property: a hidden tool is never revealed or callable", async () => {
    const pool = [...tools, ...Array.from({ length: 8 }, (_, index) => mcpTool(`extra_${index}`))];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(
          pool.map((tool) => tool.name),
          { minLength: 1 },
        ),
        fc.array(
          fc.oneof(fc.constantFrom(...pool.map((tool) => tool.name)), fc.constant("tool_search")),
          { maxLength: 6 },
        ),
        async (hiddenNames, calls) => {
          const hidden = new Set(hiddenNames);
          const catalog = arrayCatalog(pool);
          const disclosure = createDisclosure({
            catalog,
            search: leakySearch(catalog),
            mode: "on",
            isVisible: (tool) => !hidden.has(tool.name),
          });
          for (const name of calls) {
            const outcome = await disclosure.execute({
              session: "s",
              name,
              arguments: name === "tool_search" ? { queries: ["e"] } : { id: "1" },
            });
            if (hidden.has(name)) expect(outcome.ran).toBe(false);
          }
          for (const name of disclosure.store.revealed("s")) expect(hidden.has(name)).toBe(false);
          for (const tool of disclosure.prepare({ session: "s" }).loaded)
            expect(hidden.has(tool.name)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("direct calls and reveal", () => {
  it("a direct call to a never-revealed deferred tool runs and reveals it", async () => {
    const disclosure = setup(tools);
    const outcome = await disclosure.execute({
      session: "s",
      name: "list_prs",
      arguments: { id: "7" },
    });
    expect(outcome.ran).toBe(true);
    expect(outcome.revealed).toEqual(["list_prs"]);
    expect(disclosure.prepare({ session: "s" }).loaded.map((tool) => tool.name)).toEqual([
      "bash",
      "list_prs",
    ]);
    expect(disclosure.prepare({ session: "other" }).loaded.map((tool) => tool.name)).toEqual([
      "bash",
    ]);
  });

  it("tool_search reveals its matches for that session only, and they load next turn", async () => {
    const disclosure = setup(tools);
    const outcome = await disclosure.execute({
      session: "a",
      name: "tool_search",
      arguments: { queries: ["issue"] },
    });
    expect(outcome.route).toBe("meta");
    expect(outcome.revealed).toEqual(["create_issue"]);
    expect(textOf(outcome)).toContain(
      'create_issue(owner*: string, state?: "open"|"closed", count?: integer, draft?: boolean)',
    );
    expect(outcome.structuredContent).toEqual({
      matches: [{ query: "issue", tools: ["create_issue"] }],
      revealed: ["create_issue"],
    });
    expect(disclosure.prepare({ session: "a" }).loaded.map((tool) => tool.name)).toEqual([
      "bash",
      "create_issue",
    ]);
    expect(disclosure.prepare({ session: "b" }).loaded.map((tool) => tool.name)).toEqual(["bash"]);
  });

  it("an unknown name gets did-you-mean suggestions, including suffix matches", async () => {
    const disclosure = setup([...tools, mcpTool("mcp__x__ask_codex")]);
    const typo = await disclosure.execute({ session: "s", name: "create_isue" });
    expect(textOf(typo)).toBe('Unknown tool "create_isue". Did you mean: create_issue?');
    const suffix = await disclosure.execute({ session: "s", name: "ask_codex" });
    expect(textOf(suffix)).toContain("mcp__x__ask_codex");
    expect(typo.errorCode).toBe("tool_not_found");
  });
});

describe("handlers", () => {
  it("turns throws, rejections and non-MCP values into results", async () => {
    const disclosure = setup([
      coreTool("boom", {
        handler: () => {
          throw new Error("disk full");
        },
      }),
      coreTool("reject", { handler: () => Promise.reject(new Error("nope")) }),
      coreTool("plain", { handler: () => ({ a: 1 }) }),
      { name: "none", description: "No handler.", inputSchema: { type: "object" } },
    ]);
    const boom = await disclosure.execute({ session: "s", name: "boom" });
    expect(boom).toMatchObject({ isError: true, ran: true, errorCode: "tool_error" });
    expect(textOf(boom)).toMatch(/"boom" failed: disk full/);
    expect(textOf(await disclosure.execute({ session: "s", name: "reject" }))).toMatch(/nope/);
    expect(textOf(await disclosure.execute({ session: "s", name: "plain" }))).toBe('{"a":1}');
    expect((await disclosure.execute({ session: "s", name: "none" })).errorCode).toBe("no_handler");
  });

  it("times out a hanging handler and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const hang = coreTool("hang", {
      handler: (_args, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    const outcome = await setup([hang]).execute({ session: "s", name: "hang", timeoutMs: 20 });
    expect(outcome.isError).toBe(true);
    expect(textOf(outcome)).toMatch(/timed out after 20 ms/);
    expect(signal?.aborted).toBe(true);
  });

  it("hands the caller's host value to the handler unchanged", async () => {
    const seen: unknown[] = [];
    const probe = coreTool("probe", { handler: (_args, context) => seen.push(context.host) });
    const host = { toolCallId: "call-1" };
    await setup([probe]).execute({ session: "s", name: "probe", host });
    await setup([probe]).execute({ session: "s", name: "probe" });
    expect(seen[0]).toBe(host);
    expect(seen[1]).toBeUndefined();
  });

  it("honours the caller's abort signal", async () => {
    const controller = new AbortController();
    const pending = setup([coreTool("slow", { handler: () => new Promise(() => {}) })]).execute({
      session: "s",
      name: "slow",
      signal: controller.signal,
    });
    controller.abort();
    expect(textOf(await pending)).toMatch(/cancelled/);
  });

  it("before-hooks may change arguments or deny; after-hooks and the budget see the result", async () => {
    const disclosure = setup(tools, {
      hooks: {
        before: [
          (event) =>
            event.arguments.owner === "evil"
              ? { deny: "owner is blocked." }
              : { arguments: { ...event.arguments, owner: "rewritten" } },
        ],
        after: [
          (event) => ({ content: [...event.result.content, { type: "text", text: "audited" }] }),
        ],
      },
      budgetResult: (result) => ({ ...result, content: result.content.slice(0, 1) }),
    });
    const denied = await disclosure.execute({
      session: "s",
      name: "create_issue",
      arguments: { owner: "evil" },
    });
    expect(denied).toMatchObject({ isError: true, ran: false, errorCode: "denied" });
    expect(textOf(denied)).toBe('Tool "create_issue" was not run: owner is blocked.');
    const ok = await disclosure.execute({
      session: "s",
      name: "create_issue",
      arguments: { owner: "me" },
    });
    expect(ok.content).toEqual([{ type: "text", text: 'created {"owner":"rewritten"}' }]);
  });

  it("validates arguments a before-hook puts in place, and refuses invalid ones without running", async () => {
    const handler = vi.fn(() => ({ content: [{ type: "text" as const, text: "ran" }] }));
    const strict = { ...issue, handler };
    const replaceWith = (value: unknown) =>
      setup([strict], { hooks: { before: [() => ({ arguments: value as never })] } });
    const call = { session: "s", name: "create_issue", arguments: { owner: "me" } };

    const missing = await replaceWith({ state: "open" }).execute(call);
    expect(missing).toMatchObject({ isError: true, ran: false, errorCode: "hook_failed" });
    expect(textOf(missing)).toMatch(/before-call hook replaced its arguments with invalid ones/);
    expect(textOf(missing)).toMatch(/owner/);
    // the model's own arguments were fine: it is not told to fix them
    expect(textOf(missing)).not.toMatch(/Fix the arguments/);
    const notObject = await replaceWith(["owner"]).execute(call);
    expect(textOf(notObject)).toMatch(/expected an object, got an array/);
    const extra = await replaceWith({ owner: "me", sneaky: true }).execute(call);
    expect(extra).toMatchObject({ ran: false, errorCode: "hook_failed" });
    expect(handler).not.toHaveBeenCalled();

    // valid replacements run, with the same scalar repairs a model's arguments get
    const fixed = await replaceWith({ owner: "me", count: "3" }).execute(call);
    expect(fixed).toMatchObject({ ran: true });
    expect(fixed.repairs.some((repair) => repair.startsWith("before-call hook:"))).toBe(true);
    expect(handler).toHaveBeenCalledWith({ owner: "me", count: 3 }, expect.anything());
  });

  it("an after-hook that returns a plain value has it wrapped as a result, not spread", async () => {
    const disclosure = setup(tools, {
      // plain JavaScript callers can return anything; the types forbid it, so cast
      hooks: { after: [() => "replaced by the hook" as never] },
    });
    const outcome = await disclosure.execute({
      session: "s",
      name: "create_issue",
      arguments: { owner: "me" },
    });
    expect(outcome.content).toEqual([{ type: "text", text: "replaced by the hook" }]);
    expect(Object.keys(outcome)).not.toContain("0");
  });

  it("counts calls by real tool name and route", async () => {
    const disclosure = setup(tools, { strategy: "bridge" });
    await disclosure.execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "create_issue", arguments: { owner: "x" } },
    });
    await disclosure.execute({ session: "s", name: "tool_search", arguments: { queries: ["pr"] } });
    await disclosure.execute({ session: "s", name: "nope" });
    expect(disclosure.metrics()).toEqual({
      calls: { create_issue: 1, tool_search: 1 },
      routes: { direct: 1, bridge: 1, meta: 1 },
      errors: 1,
      // execute checks meta tools against the session's plan, which it planned once and cached
      caches: { plans: { size: 1, limit: 64 } },
    });
  });
});

describe("time limit option", () => {
  it("rejects a time limit that is not a positive number, naming the option", () => {
    for (const timeoutMs of [0, -5, Number.NaN]) {
      expect(() => setup(tools, { timeoutMs })).toThrow(/timeoutMs/);
    }
    const disclosure = setup(tools);
    for (const timeoutMs of [0, Number.NaN]) {
      expect(() =>
        disclosure.execute({ session: "s", name: "bash", arguments: {}, timeoutMs }),
      ).toThrow(/timeoutMs/);
    }
  });
});

describe("call without a usable name", () => {
  it("answers with an error result instead of rejecting with a TypeError", async () => {
    const disclosure = setup(tools);
    for (const name of [undefined, 5, null, {}]) {
      const outcome = await disclosure.execute({ session: "s", name, arguments: {} } as never);
      expect(outcome.ran).toBe(false);
      expect(outcome.errorCode).toBe("tool_not_found");
      expect(textOf(outcome)).toMatch(/needs the name of a tool/);
    }
  });
});
