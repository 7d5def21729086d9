// Issue 21, "how it is proven", tried as a new user would: an agent with five built-in tools of
// its own plus the 20 real MCP catalogs gets its five tools loaded on the first turn and finds
// the MCP tools by search, through the library and through the AI SDK adapter.
import path from "node:path";
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { scriptedModel } from "../../src/adapters/ai-sdk/__fixtures__/scripted-model.js";
import { createAISDKAdapter } from "../../src/adapters/ai-sdk/index.js";
import type { ToolDefinition } from "../../src/catalog/index.js";
import { createToolSift } from "../../src/create-toolsift.js";
import { loadCatalogPaths } from "../../src/node.js";
import { sharedDir } from "../shared-dir.js";

// read_file and write_file would clash with server-filesystem's tools of the same names: the
// folder loader keeps bare names, so the catalog refuses the second one with duplicate_tool
const BUILT_IN = ["terminal", "patch", "todo", "memory", "clarify"];
const BUILT_IN_SORTED = [...BUILT_IN].sort();
const SEARCH = "create an issue in a github repository";

const schema = {
  type: "object",
  properties: { input: { type: "string" } },
  required: ["input"],
} as const;

/** The agent's own tools, written the plain way: no server, no core or defer field. */
const builtIns: ToolDefinition[] = BUILT_IN.map((name) => ({
  name,
  description: `The agent's own ${name.replace(/_/g, " ")} tool.`,
  inputSchema: { ...schema },
  handler: () => `ran ${name}`,
}));

let mcp: ToolDefinition[] = [];
beforeAll(async () => {
  mcp = (await loadCatalogPaths([path.join(sharedDir(), "catalogs")])).tools;
});

describe("a host with five built-in tools and the 20 real catalogs", () => {
  it("through the library: the five are loaded on the first turn, the MCP tools found by search", async () => {
    expect(mcp).toHaveLength(1_371);
    const sift = createToolSift({ tools: [...builtIns, ...mcp], tokens: "estimate" });
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
      const turn = sift.prepare({ session: `s-${provider}`, provider, contextWindow: 200_000 });
      expect(turn.plan.active, turn.plan.reason).toBe(true);
      expect(turn.plan.loaded.map((each) => each.name).sort(), provider).toEqual(BUILT_IN_SORTED);
      expect(turn.plan.deferred).toHaveLength(1_371);
    }
    const found = await sift.execute({
      session: "s-anthropic",
      name: "tool_search",
      arguments: { queries: [SEARCH] },
    });
    expect(found.revealed.length).toBeGreaterThan(0);
    const first = sift.catalog.get(found.revealed[0] ?? "");
    expect(first?.server).toMatch(/github/);
    const next = sift.prepare({ session: "s-anthropic", contextWindow: 200_000 });
    expect(next.loaded.map((each) => each.name)).toEqual(
      expect.arrayContaining([...BUILT_IN, ...found.revealed]),
    );
  });

  it("through the AI SDK adapter: the five are active in step 0, a found MCP tool in step 1", async () => {
    const tools: ToolSet = {};
    for (const name of BUILT_IN) {
      tools[name] = tool({
        description: `The agent's own ${name.replace(/_/g, " ")} tool.`,
        inputSchema: jsonSchema<{ input: string }>({ ...schema, required: ["input"] }),
        execute: async () => `ran ${name}`,
      });
    }
    const adapter = await createAISDKAdapter({
      tools,
      toolsift: { tools: mcp, tokens: "estimate" },
      turn: { contextWindow: 200_000 },
    });
    const session = adapter.session("chat");
    const { model, offered } = scriptedModel([
      () => ({ calls: [{ name: "tool_search", input: { queries: [SEARCH] } }] }),
      () => ({ text: "found it" }),
    ]);
    await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(3),
      prompt: "Open an issue about the flaky build.",
    });
    expect([...(offered[0] ?? [])].sort()).toEqual([...BUILT_IN_SORTED, "tool_search"].sort());
    const revealed = session.lastPlan()?.loaded.map((each) => each.name) ?? [];
    const fromMCP = revealed.filter((name) => !BUILT_IN.includes(name));
    expect(fromMCP.length).toBeGreaterThan(0);
    expect(adapter.sift.catalog.get(fromMCP[0] ?? "")?.server).toMatch(/github/);
    // the SDK sees the found tools under keys its name rule accepts ("/" becomes "_")
    for (const name of BUILT_IN) expect(offered[1]).toContain(name);
    expect(offered[1]).toHaveLength(BUILT_IN.length + 1 + fromMCP.length);
    expect(offered[1]?.some((name) => /create_issue/.test(name))).toBe(true);
  });
});
