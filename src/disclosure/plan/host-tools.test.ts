/**
 * Issue 21: the host's own tools stay loaded and MCP tools defer, as in the agent runtimes
 * toolsift replaces. Each test re-expresses a peer project's behaviour against the public facade.
 */

import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { createToolSift } from "../../create-toolsift.js";
import { isToolsiftError } from "../../errors.js";
import { textOf } from "../__fixtures__/tools.js";
import { createToolClassifier } from "./classify-tool.js";

/** A tool the host defines itself: no server, no core or defer field. */
function hostTool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `The agent's own ${name.replace(/_/g, " ")} tool.`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    handler: () => `ran ${name}`,
    ...extra,
  };
}

/** `count` tools as MCP servers list them, spread over ten servers. */
function mcpTools(count: number): ToolDefinition[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `svc${index % 10}_action_${index}`,
    server: `server${index % 10}`,
    description: `Runs remote action ${index} of service ${index % 10} on records and reports.`,
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
    },
    handler: () => `remote ${index}`,
  }));
}

const WORKING_SET = ["terminal", "read_file", "write_file", "patch", "todo", "memory"];
const quiet = { onWarning: () => undefined };

describe("default by origin", () => {
  const classify = createToolClassifier(["pinned_*"]);
  it("a host tool is core, an MCP tool deferrable; core, defer and neverDefer override both ways", () => {
    const host = hostTool("terminal");
    const remote: ToolDefinition = { ...host, name: "create_issue", server: "github" };
    expect(classify(host)).toBe("core");
    expect(classify(remote)).toBe("deferrable");
    // host tools opt out of loading
    expect(classify({ ...host, defer: "always" })).toBe("deferrable");
    expect(classify({ ...host, defer: "auto" })).toBe("deferrable");
    expect(classify({ ...host, core: false })).toBe("deferrable");
    // MCP tools opt in
    expect(classify({ ...remote, core: true })).toBe("core");
    expect(classify({ ...remote, defer: "never" })).toBe("core");
    expect(classify({ ...remote, name: "pinned_issue" })).toBe("core");
    expect(classify({ ...remote, defer: "auto" })).toBe("deferrable");
    // the strongest declaration wins: never over always, always over core
    expect(classify({ ...remote, core: true, defer: "always" })).toBe("deferrable");
    expect(classify({ ...host, defer: "never", core: false })).toBe("core");
    expect(classify({ ...host, name: "pinned_host", defer: "always" })).toBe("core");
  });
});

describe("a host's core working set beside many MCP tools (Hermes)", () => {
  it("is sent in full with the meta tools, for 5 to 500 MCP tools and every provider", () => {
    const host = WORKING_SET.map((name) => hostTool(name));
    for (const count of [5, 50, 127, 500]) {
      const sift = createToolSift({ tools: [...host, ...mcpTools(count)], tokens: "estimate" });
      for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
        const turn = sift.prepare({ session: `s-${count}`, provider, mode: "on" });
        const loaded = turn.plan.loaded.map((tool) => tool.name);
        // the regression: a core tool vanished once enough MCP tools were connected
        expect(loaded.sort(), `${count} MCP tools, ${provider}`).toEqual([...WORKING_SET].sort());
        expect(turn.plan.metaTools.map((tool) => tool.name)).toEqual(["tool_search"]);
        expect(turn.plan.deferred).toHaveLength(count);
      }
    }
  });

  it("stays loaded in auto mode too, where 500 MCP tools activate disclosure", () => {
    const sift = createToolSift({
      tools: [...WORKING_SET.map((name) => hostTool(name)), ...mcpTools(500)],
      tokens: "estimate",
    });
    const plan = sift.prepare({ session: "s", contextWindow: 200_000 });
    expect(plan.active).toBe(true);
    expect(plan.loaded.map((tool) => tool.name).sort()).toEqual([...WORKING_SET].sort());
  });
});

describe("only core tools", () => {
  it("in mode on, disclosure does not activate and the toolset passes through unchanged", () => {
    const tools = WORKING_SET.map((name) => hostTool(name));
    const sift = createToolSift({ tools, disclosure: { mode: "on" }, tokens: "estimate" });
    const plain = createToolSift({ tools, disclosure: { mode: "off" }, tokens: "estimate" });
    const plan = sift.prepare({ session: "s" });
    expect(plan.active).toBe(false);
    expect(plan.reason).toMatch(/no deferrable tools/);
    expect(plan.metaTools).toEqual([]);
    expect(plan.system).toBe("");
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
      const turn = sift.prepare({ session: "s", provider });
      expect(turn.tools).toEqual(plain.prepare({ session: "s", provider }).tools);
      expect(turn.plan.loaded).toHaveLength(WORKING_SET.length);
      expect(turn.system).toBe("");
    }
  });
});

describe("deferral declared on a host tool (copilot SDK proposal)", () => {
  const tools = [
    hostTool("terminal"),
    hostTool("image_editor", { defer: "always" }),
    ...mcpTools(20),
  ];

  it("a tool with no server and no defer field is not deferrable; defer: always is not sent", () => {
    const sift = createToolSift({ tools, tokens: "estimate" });
    const plan = sift.prepare({ session: "s", mode: "on" });
    expect(plan.loaded.map((tool) => tool.name)).toEqual(["terminal"]);
    expect(plan.deferred.map((view) => view.name)).toContain("image_editor");
    expect(plan.stats).toMatchObject({ core: 1, deferrable: 21 });
  });

  it("under Anthropic native search, defer: always carries defer_loading: true", () => {
    const sift = createToolSift({ tools, tokens: "estimate" });
    const turn = sift.prepare({
      session: "s",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      mode: "on",
    });
    expect(turn.mode).toBe("native");
    const byName = new Map(
      turn.tools.map((tool) => [(tool as { name: string }).name, tool as Record<string, unknown>]),
    );
    expect(byName.get("image_editor")?.defer_loading).toBe(true);
    expect(byName.get("svc0_action_0")?.defer_loading).toBe(true);
    expect(byName.get("terminal")).toBeDefined();
    expect(byName.get("terminal")?.defer_loading).toBeUndefined();
  });
});

describe("the meta tools and loaded tools", () => {
  const tools = [...WORKING_SET.map((name) => hostTool(name)), ...mcpTools(30)];
  const bridged = () => {
    const sift = createToolSift({
      tools,
      disclosure: { mode: "on", strategy: "bridge" },
      tokens: "estimate",
    });
    sift.prepare({ session: "s" });
    return sift;
  };

  it("tool_call refuses a core tool, naming it and telling the model to call it directly", async () => {
    const sift = bridged();
    const outcome = await sift.execute({
      session: "s",
      name: "tool_call",
      arguments: { name: "terminal", arguments: { text: "ls" } },
    });
    expect(outcome.ran).toBe(false);
    expect(outcome.errorCode).toBe("call_directly");
    expect(textOf(outcome)).toMatch(/"terminal" is already loaded: call it directly/);
    const direct = await sift.execute({ session: "s", name: "terminal", arguments: {} });
    expect(textOf(direct)).toBe("ran terminal");
  });

  it("tool_describe of a loaded tool says it is loaded; of a deferred tool, it does not", async () => {
    const sift = bridged();
    const loaded = await sift.execute({
      session: "s",
      name: "tool_describe",
      arguments: { names: ["read_file", "svc1_action_1"] },
    });
    const text = textOf(loaded);
    expect(text).toMatch(/"read_file" is already loaded: call it directly/);
    expect(text).not.toMatch(/"svc1_action_1" is already loaded/);
    // the schema is still described, so the model can read it
    expect(text).toContain('"name":"read_file"');
  });

  it("the deferred-tools listing and the search tool's count leave loaded tools out", () => {
    const sift = createToolSift({ tools, tokens: "estimate" });
    const plan = sift.prepare({ session: "s", mode: "on", listing: true, contextWindow: 200_000 });
    const search = plan.metaTools[0];
    expect(search?.description).toMatch(/\(30 searchable\)/);
    const listed = `${search?.description ?? ""}\n${plan.system}`;
    expect(listed).toContain("svc1_action_1");
    for (const name of WORKING_SET) expect(listed).not.toMatch(new RegExp(`\\b${name}\\b`));
    expect(plan.deferred.map((view) => view.name)).not.toContain("terminal");
  });
});

describe("a tool named by a forced tool_choice (oh-my-pi)", () => {
  it("is kept loaded, so the request the provider gets can honour the choice", () => {
    const sift = createToolSift({
      tools: [hostTool("terminal"), ...mcpTools(40)],
      tokens: "estimate",
    });
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
      const turn = sift.prepare({
        session: `s-${provider}`,
        provider,
        mode: "on",
        format: { toolChoice: { name: "svc3_action_13" } },
      });
      const loaded = turn.plan.loaded.map((tool) => tool.name);
      expect(loaded, provider).toEqual(["svc3_action_13", "terminal"]);
      expect(JSON.stringify(turn.toolChoice), provider).toContain("svc3_action_13");
    }
  });
});

describe("limits still bind", () => {
  it("core tools past a provider's limit: pinned ones fail with too_many_tools naming them", () => {
    const pinned = Array.from({ length: 130 }, (_, index) =>
      hostTool(`own_${index}`, { defer: "never" }),
    );
    const sift = createToolSift({ tools: [...pinned, ...mcpTools(5)], tokens: "estimate" });
    let caught: unknown;
    try {
      sift.prepare({ session: "s", provider: "openai-chat" });
    } catch (error) {
      caught = error;
    }
    expect(isToolsiftError(caught) && caught.code).toBe("too_many_tools");
    const message = String((caught as Error).message);
    expect(message).toMatch(/130 pinned tools .* limit of 128/);
    expect(message).toMatch(/own_0, own_1, .*and \d+ more/);
  });

  it("core tools past a provider's limit: unpinned ones are deferred, the smallest kept", () => {
    const host = Array.from({ length: 140 }, (_, index) => hostTool(`own_${index}`));
    const sift = createToolSift({ tools: [...host, ...mcpTools(5)], tokens: "estimate", ...quiet });
    const turn = sift.prepare({ session: "s", provider: "openai-chat" });
    expect(turn.tools).toHaveLength(128);
    expect(turn.plan.deferred).toHaveLength(145 - 127);
  });

  it("mode off past a provider's limit fails with too_many_tools naming the core tools", () => {
    const host = WORKING_SET.map((name) => hostTool(name));
    const sift = createToolSift({ tools: [...host, ...mcpTools(200)], tokens: "estimate" });
    expect(() => sift.prepare({ session: "s", provider: "openai-chat", mode: "off" })).toThrow(
      /206 tools would be sent .*limit of 128.*6 of them core \(memory, patch, read_file, terminal, todo, write_file/,
    );
  });
});
