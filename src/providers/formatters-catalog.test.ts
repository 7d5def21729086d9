import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import { qualifyDuplicateNames, type ToolDefinition } from "../catalog/index.js";
import type { TurnPlan } from "../disclosure/index.js";
import {
  anthropicViolations,
  geminiJsonSchemaViolations,
  geminiViolations,
  openAIStrictViolations,
  openAIViolations,
} from "./__tests__/rules.js";
import { createAnthropicFormatter } from "./anthropic/index.js";
import { createGeminiFormatter } from "./gemini/index.js";
import { createOpenAIChatFormatter, createOpenAIResponsesFormatter } from "./openai/index.js";

function loadTools(): ToolDefinition[] {
  const dir = path.join(sharedDir(), "catalogs");
  const entries = readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ToolDefinition[]).map((tool) => ({
        ...tool,
        description: tool.description ?? "",
        server: file.replace(/\.json$/, ""),
      })),
    );
  return qualifyDuplicateNames(entries).entries;
}

function plan(tools: ToolDefinition[], native: boolean): TurnPlan {
  const n = tools.length;
  return {
    loaded: native ? [] : tools,
    deferred: native
      ? tools.map((tool) => ({
          name: tool.name,
          summary: "",
          signature: "",
          shown: "native",
          tool,
        }))
      : [],
    metaTools: [],
    system: "",
    active: native,
    reason: native ? "native" : "all loaded",
    strategy: "reveal",
    nativeSearch: native,
    stats: {
      visible: n,
      core: native ? 0 : n,
      deferrable: native ? n : 0,
      loaded: native ? 0 : n,
      deferred: native ? n : 0,
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

type Entry = { [key: string]: unknown };

describe("every real catalog tool formats for every provider (all loaded)", () => {
  const tools = loadTools();
  const all = plan(tools, false);
  const expectAll = (names: readonly string[]) => {
    expect(names).toHaveLength(tools.length);
    expect(new Set(names).size).toBe(tools.length);
  };

  it("has the 1,371 tools", () => expect(tools).toHaveLength(1371));

  it("Anthropic: each input_schema passes the rules; native mode defers all of them", () => {
    const formatted = createAnthropicFormatter().formatTools(all);
    const sent = formatted.tools as Entry[];
    expectAll(sent.map((tool) => String(tool.name)));
    const problems = sent.flatMap((tool) =>
      anthropicViolations(String(tool.name), tool.input_schema as Entry),
    );
    expect(problems.slice(0, 10)).toEqual([]);
    const native = createAnthropicFormatter().formatTools(plan(tools, true))
      .tools as unknown as Entry[];
    expect(native[0]).toMatchObject({ type: "tool_search_tool_bm25_20251119" });
    expect(native.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    expect(native.filter((tool) => tool.cache_control).map((tool) => tool.name)).toEqual([
      "tool_search_tool_bm25",
    ]);
    expect(native).toHaveLength(tools.length + 1);
  });

  it("OpenAI Chat: plain and strict parameters pass the rules; the 128 limit is reported", () => {
    for (const strict of [false, true]) {
      const formatted = createOpenAIChatFormatter({ strict }).formatTools(all);
      const sent = formatted.tools.map((tool) => tool.function);
      expectAll(sent.map((fn) => fn.name));
      const problems = sent.flatMap((fn) =>
        fn.strict
          ? openAIStrictViolations(fn.name, fn.parameters)
          : openAIViolations(fn.name, fn.parameters),
      );
      expect(problems.slice(0, 10)).toEqual([]);
      expect(sent.every((fn) => fn.description.length <= 1024)).toBe(true);
      const codes = new Set(formatted.warnings.map((warning) => warning.code));
      expect(codes.has("tool_limit_exceeded")).toBe(true);
      if (strict) {
        // every tool either went strict or carries a warning saying why not
        const notStrict = sent.filter((fn) => !fn.strict).length;
        const explained = formatted.warnings.filter((w) => w.code === "strict_unavailable").length;
        expect(explained).toBe(notStrict);
        expect(sent.filter((fn) => fn.strict).length).toBeGreaterThan(500);
      }
    }
  });

  it("OpenAI Responses: functions pass the rules; native namespaces hold every tool, under 10 each", () => {
    const formatted = createOpenAIResponsesFormatter().formatTools(all);
    const sent = formatted.tools as unknown as Entry[];
    expectAll(sent.map((tool) => String(tool.name)));
    expect(
      sent.flatMap((tool) => openAIViolations(String(tool.name), tool.parameters as Entry)),
    ).toEqual([]);
    const native = createOpenAIResponsesFormatter().formatTools(plan(tools, true))
      .tools as unknown as Entry[];
    const spaces = native.filter((tool) => tool.type === "namespace");
    const members = spaces.flatMap((space) => space.tools as Entry[]);
    expectAll(members.map((tool) => String(tool.name)));
    expect(members.every((tool) => tool.defer_loading === true)).toBe(true);
    expect(Math.max(...spaces.map((space) => (space.tools as Entry[]).length))).toBeLessThan(10);
    expect(new Set(spaces.map((space) => space.name)).size).toBe(spaces.length);
    for (const space of spaces) expect(String(space.name)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("Gemini: every declaration passes the rules of its field; the 512 limit is reported", () => {
    const formatted = createGeminiFormatter().formatTools(all);
    const declarations = formatted.tools[0]?.functionDeclarations ?? [];
    expectAll(declarations.map((entry) => entry.name));
    const problems = declarations.flatMap((entry) =>
      entry.parametersJsonSchema
        ? geminiJsonSchemaViolations(entry.name, entry.parametersJsonSchema)
        : geminiViolations(entry.name, entry.parameters),
    );
    expect(problems.slice(0, 10)).toEqual([]);
    const switched = declarations.filter((entry) => entry.parametersJsonSchema).length;
    // the ms-365 $ref blow-ups (and only a few tools) go to parametersJsonSchema
    expect(switched).toBeGreaterThan(20);
    expect(switched).toBeLessThan(80);
    const size = JSON.stringify(formatted.request).length;
    const forced = createGeminiFormatter({ schemaField: "parameters" }).formatTools(all);
    expect(size).toBeLessThan(JSON.stringify(forced.request).length);
    expect(formatted.warnings.some((warning) => warning.code === "tool_limit_exceeded")).toBe(true);
    console.log(
      JSON.stringify({
        geminiJsonSchema: switched,
        bytes: size,
        bytesParametersOnly: JSON.stringify(forced.request).length,
      }),
    );
  });
});
