import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import type { ExecuteOutcome, TurnPlan } from "../disclosure/index.js";
import { isToolsiftError } from "../errors.js";
import { createAnthropicFormatter } from "./anthropic/index.js";
import { createGeminiFormatter } from "./gemini/index.js";
import { createOpenAIChatFormatter, createOpenAIResponsesFormatter } from "./openai/index.js";
import type { UnifiedCall } from "./types.js";

const tool = (name: string, server?: string): ToolDefinition => ({
  name,
  description: `Does ${name}.`,
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  ...(server ? { server } : {}),
});

const search: ToolDefinition = {
  name: "tool_search",
  description: "Find tools.",
  inputSchema: {
    type: "object",
    properties: { queries: { type: "array", items: { type: "string" } } },
  },
};

function plan(loaded: ToolDefinition[], deferred: ToolDefinition[], native = false): TurnPlan {
  return {
    loaded,
    deferred: deferred.map((entry) => ({
      name: entry.name,
      summary: "",
      signature: "",
      shown: native ? "native" : "search",
      tool: entry,
    })),
    metaTools: deferred.length > 0 && !native ? [search] : [],
    system: deferred.length > 0 ? "note" : "",
    active: deferred.length > 0,
    reason: "",
    strategy: "reveal",
    nativeSearch: native,
    stats: {
      visible: 0,
      core: loaded.length,
      deferrable: deferred.length,
      loaded: loaded.length,
      deferred: deferred.length,
      revealed: 0,
      allTokens: 0,
      deferrableTokens: 0,
      loadedTokens: 0,
      metaTokens: 0,
      listingTokens: 0,
      directoryTokens: 0,
      listingTier: "none",
    },
  };
}

const outcome = (extra: Partial<ExecuteOutcome> = {}): ExecuteOutcome => ({
  content: [{ type: "text", text: "no match. Try other keywords." }],
  tool: "tool_search",
  route: "meta",
  ran: true,
  revealed: [],
  repairs: [],
  durationMs: 0,
  ...extra,
});
const call = (name: string, kind: UnifiedCall["kind"] = "function"): UnifiedCall => ({
  id: "c1",
  name,
  arguments: {},
  providerName: name,
  kind,
});

describe("Anthropic formatter", () => {
  it("marks at most 20 tools strict and explains the rest", () => {
    const loaded = Array.from({ length: 25 }, (_, index) => tool(`t${index}`));
    const formatted = createAnthropicFormatter({ strict: true }).formatTools(plan(loaded, []));
    const strict = formatted.tools.filter((entry) => "strict" in entry && entry.strict);
    expect(strict).toHaveLength(20);
    expect(formatted.warnings.filter((w) => w.code === "strict_unavailable")).toHaveLength(5);
  });

  it("answers a search with no match with its text, and keeps errors flagged", () => {
    const anthropic = createAnthropicFormatter({ toolReferences: true });
    anthropic.formatTools(plan([], [tool("a", "s")]));
    const [message, ...more] = anthropic.formatResults([
      { call: call("tool_search"), outcome: outcome({ structuredContent: { revealed: [] } }) },
      { call: { ...call("a"), id: "c2" }, outcome: outcome({ isError: true, tool: "a" }) },
      { call: call("tool_search_tool_bm25", "server_search"), outcome: outcome() },
    ]);
    expect(more).toEqual([]);
    expect(message?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "c1",
        content: [{ type: "text", text: "no match. Try other keywords." }],
      },
      {
        type: "tool_result",
        tool_use_id: "c2",
        content: [{ type: "text", text: "no match. Try other keywords." }],
        is_error: true,
      },
    ]);
  });

  it("reads a server search error and maps forced tool choice", () => {
    const anthropic = createAnthropicFormatter();
    const formatted = anthropic.formatTools(plan([tool("my.tool")], [tool("b", "s")], true), {
      toolChoice: { name: "my.tool" },
      searchTool: "regex",
    });
    expect(formatted.tools[0]).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
    expect(formatted.toolChoice).toEqual({ type: "tool", name: "my_tool" });
    const calls = anthropic.parseCalls({
      content: [
        {
          type: "server_tool_use",
          id: "srv",
          name: "tool_search_tool_regex",
          input: { pattern: "(" },
        } as { type: string },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srv",
          content: { type: "tool_search_tool_result_error", error_code: "invalid_tool_input" },
        } as { type: string },
      ],
    });
    expect(calls[0]?.native).toEqual({
      input: { pattern: "(" },
      referenced: [],
      error: "invalid_tool_input",
    });
  });

  it("refuses to parse before anything was formatted", () => {
    let error: unknown;
    try {
      createAnthropicFormatter().parseCalls({ content: [] });
    } catch (caught) {
      error = caught;
    }
    expect(isToolsiftError(error) && error.code).toBe("invalid_option");
  });
});

describe("OpenAI formatters", () => {
  it("Chat: stableTools falls back with a warning above 128 tools; invalid JSON passes through", () => {
    const deferred = Array.from({ length: 140 }, (_, index) => tool(`d${index}`, "s"));
    const chat = createOpenAIChatFormatter({ stableTools: true });
    const formatted = chat.formatTools(plan([tool("core")], deferred));
    expect(formatted.tools.map((entry) => entry.function.name)).toEqual(["tool_search", "core"]);
    expect(formatted.warnings.map((w) => w.code)).toContain("option_ignored");
    const small = chat.formatTools(plan([tool("core")], deferred.slice(0, 5)));
    expect(small.tools).toHaveLength(7);
    expect(small.toolChoice).toEqual({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: [
          { type: "function", function: { name: "tool_search" } },
          { type: "function", function: { name: "core" } },
        ],
      },
    });
    const calls = chat.parseCalls({
      choices: [
        {
          message: {
            tool_calls: [
              { id: "x", type: "function", function: { name: "core", arguments: "{bad" } },
            ],
          },
        },
      ],
    });
    expect(calls[0]?.arguments).toBe("{bad");
  });

  it("Responses: a deferred tool cannot be named in tool_choice", () => {
    const formatted = createOpenAIResponsesFormatter().formatTools(
      plan([], [tool("d", "s")], true),
      { toolChoice: { name: "d" } },
    );
    expect(formatted.toolChoice).toBe("required");
    expect(formatted.warnings.map((w) => w.code)).toEqual(["option_ignored"]);
  });
});

describe("Gemini formatter", () => {
  it("forces a call with ANY and allowedFunctionNames; sends errors as error", () => {
    const gemini = createGeminiFormatter();
    const formatted = gemini.formatTools(plan([tool("9lives")], []), {
      toolChoice: { name: "9lives" },
    });
    expect(formatted.toolChoice).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["_9lives"] },
    });
    const [content] = gemini.formatResults([
      {
        call: { ...call("9lives"), providerName: "_9lives", id: "toolsift-gemini-0" },
        outcome: outcome({ isError: true, content: [{ type: "text", text: "boom" }] }),
      },
    ]);
    expect(content?.parts).toEqual([
      { functionResponse: { name: "_9lives", response: { error: "boom" } } },
    ]);
  });
});

describe("parseCalls on malformed responses", () => {
  const formatters = {
    anthropic: createAnthropicFormatter(),
    "openai-chat": createOpenAIChatFormatter(),
    "openai-responses": createOpenAIResponsesFormatter(),
    gemini: createGeminiFormatter(),
  };
  const thrown = (run: () => unknown): unknown => {
    try {
      run();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it("throws a ToolsiftError naming the provider and the missing field, never a TypeError", () => {
    for (const [provider, formatter] of Object.entries(formatters)) {
      const formatted = formatter.formatTools(plan([tool("core")], []));
      for (const response of [undefined, null, "text", 5, []]) {
        const error = thrown(() => formatter.parseCalls(response as never, formatted as never));
        expect(isToolsiftError(error) && error.code, `${provider} ${String(response)}`).toBe(
          "invalid_option",
        );
        expect((error as Error).message).toContain(provider);
      }
    }
    for (const [provider, field] of [
      ["anthropic", "content"],
      ["openai-chat", "choices"],
      ["openai-responses", "output"],
    ] as const) {
      const formatter = formatters[provider];
      const formatted = formatter.formatTools(plan([tool("core")], []));
      const error = thrown(() =>
        formatter.parseCalls({ [field]: null } as never, formatted as never),
      );
      expect((error as Error).message).toContain(`"${field}"`);
    }
  });

  it("skips entries that are not objects and keeps the real calls", () => {
    const calls = (provider: keyof typeof formatters, response: unknown) => {
      const formatter = formatters[provider];
      const formatted = formatter.formatTools(plan([tool("core")], []));
      return formatter.parseCalls(response as never, formatted as never).map((c) => c.name);
    };
    expect(
      calls("anthropic", { content: [null, { type: "tool_use", id: "1", name: "core" }] }),
    ).toEqual(["core"]);
    expect(calls("openai-chat", { choices: [{}] })).toEqual([]);
    expect(
      calls("openai-chat", {
        choices: [
          {
            message: {
              tool_calls: [null, { id: "1", type: "function", function: { name: "core" } }],
            },
          },
        ],
      }),
    ).toEqual(["core"]);
    expect(
      calls("openai-responses", {
        output: [null, { type: "function_call", call_id: "1", name: "core" }],
      }),
    ).toEqual(["core"]);
    expect(
      calls("gemini", {
        candidates: [{ content: { parts: [null, { functionCall: { name: "core" } }] } }],
      }),
    ).toEqual(["core"]);
    // a Gemini response without candidates (a blocked prompt) has no calls
    expect(calls("gemini", { promptFeedback: { blockReason: "SAFETY" } })).toEqual([]);
  });
});

describe("a listing longer than the provider's description limit", () => {
  const listing = `Deferred tools:\n${Array.from({ length: 80 }, (_, index) => `- tool_${index}: does thing ${index}`).join("\n")}`;
  const withListing = (): TurnPlan => {
    const base = plan([], [tool("a", "s"), tool("b", "s")]);
    return {
      ...base,
      metaTools: [{ ...search, description: `${search.description}\n\n${listing}` }],
      listing,
    };
  };

  it("moves to the system note for OpenAI (1,024 characters), whole and without a cut warning", () => {
    for (const formatter of [
      createOpenAIChatFormatter(),
      createOpenAIResponsesFormatter({ model: "gpt-4.1" }),
    ]) {
      const formatted = formatter.formatTools(withListing());
      const text = JSON.stringify(formatted.tools);
      expect(text).not.toContain("tool_79: does thing 79");
      expect(formatted.system).toContain(listing);
      expect(formatted.warnings.map((warning) => warning.code)).not.toContain(
        "description_truncated",
      );
    }
  });

  it("stays in the search tool's description where no limit applies (Anthropic)", () => {
    const formatted = createAnthropicFormatter().formatTools(withListing());
    expect(JSON.stringify(formatted.tools)).toContain("tool_79: does thing 79");
    expect(formatted.system).not.toContain("tool_79");
  });
});
