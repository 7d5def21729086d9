/** Issue 21: the inspector's "why" column says the default-by-origin rule, or what overrode it. */

import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";
import { createInspectorModel } from "./inspector-model.js";

function hostTool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `The agent's own ${name.replace(/_/g, " ")} tool.`,
    inputSchema: { type: "object", properties: {} },
    ...extra,
  };
}

const remote = (index: number): ToolDefinition =>
  hostTool(`remote_action_${index}`, { server: `server${index % 3}` });

describe("the inspector's why column", () => {
  it("says the rule by origin, or the declaration that decided, for each visible tool", () => {
    const tools = [
      hostTool("terminal"),
      hostTool("image_editor", { defer: "always" }),
      { ...hostTool("create_issue"), server: "github" },
      { ...hostTool("get_me"), server: "github", core: true },
      ...Array.from({ length: 20 }, (_, index) => remote(index)),
    ];
    const view = createInspectorModel(tools).catalog();
    const why = (name: string) => {
      for (const server of view.servers) {
        const entry = server.tools.find((each) => each.name === name);
        if (entry) return view.reasons[entry.reason] ?? "";
      }
      return "";
    };
    expect(why("terminal")).toMatch(
      /Loaded by origin: the host's own tools \(no server\) stay loaded and tools from MCP servers are deferred, unless core, defer or neverDefer says otherwise\.$/,
    );
    expect(why("create_issue")).toMatch(/Deferred by origin: the host's own tools/);
    expect(why("image_editor")).toMatch(/Deferred: declared defer: "always"\.$/);
    expect(why("get_me")).toMatch(/Loaded: declared core: true\.$/);
  });
});

describe("the inspector's search with a gateway's learning", () => {
  it("ranks with the learned words and shows them as the learned field; a removed word goes", async () => {
    const tools = [
      { ...hostTool("create_issue"), description: "Create an issue in a repository." },
      { ...hostTool("read_file"), description: "Read a file from disk." },
      { ...hostTool("list_tickets"), description: "List the open support requests." },
    ];
    // the gateway's facade, where sessions searched two requests about a bug, then called
    // create_issue (a word counts apart once two requests share it)
    const gateway = createToolSift({ tools, learning: {} });
    for (const session of ["a", "b", "c"])
      for (const request of ["file a new bug", "report a bug"])
        gateway.learning?.evidence.record(request, tools[0] as ToolDefinition, session);
    const model = createInspectorModel(tools, { learning: gateway.learning });
    const learnedTerms = async () => {
      const view = await model.search("bug", { limit: 3 });
      const hit = view.result.hits.find((entry) => entry.name === "create_issue") as
        | { explanation?: { term: string; field: string }[] }
        | undefined;
      return (hit?.explanation ?? []).filter((entry) => entry.field === "learned");
    };
    expect(await learnedTerms()).toEqual([expect.objectContaining({ term: "bug" })]);
    await expect(createInspectorModel(tools).search("bug")).resolves.toMatchObject({
      result: { hits: [] },
    });
    gateway.learning?.evidence.removeWord("create_issue", "bug");
    expect(await learnedTerms()).toEqual([]);
  });
});
