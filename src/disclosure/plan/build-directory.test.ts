import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import { buildDirectory } from "./build-directory.js";
import { estimateTokens } from "./estimate-tokens.js";

const tool = (name: string, server: string, description: string): ToolDefinition => ({
  ...mcpTool(name, server),
  description,
});

const tools = [
  tool("create_issue", "tracker", "Create an issue in a project."),
  tool("close_issue", "tracker", "Close an issue."),
  tool("list_issues", "tracker", "List the issues of a project."),
  tool("send_message", "chat", "Send a message to a channel."),
  tool("list_channels", "chat", "List the channels of a workspace."),
  tool("reply_thread", "chat", "Reply to a message thread in a channel."),
];

describe("buildDirectory", () => {
  it("gives one line per server with its count and words from its own tools", () => {
    const directory = buildDirectory(tools, 1_000, estimateTokens, { searchName: "tool_search" });
    expect(directory.tier).toBe("words");
    expect(directory.text).toBe(
      [
        "Tool servers (2); find their tools with tool_search:",
        "- chat (3 tools): channel, message, reply, send",
        "- tracker (3 tools): issue, close, project",
      ].join("\n"),
    );
  });

  it("degrades to names and counts, then to the first names, within its budget", () => {
    const full = buildDirectory(tools, 1_000, estimateTokens);
    const names = buildDirectory(tools, full.tokens - 1, estimateTokens);
    expect(names).toMatchObject({ tier: "names", text: "Tool servers (2): chat (3), tracker (3)" });
    const many = Array.from({ length: 10 }, (_, index) => mcpTool(`t${index}`, `server${index}`));
    const cut = buildDirectory(many, 30, estimateTokens);
    expect(cut.tier).toBe("names");
    expect(cut.tokens).toBeLessThanOrEqual(30);
    expect(cut.text).toMatch(
      /^Tool servers \(10\): server0 \(1\), server1 \(1\), .* …and \d more$/,
    );
    expect(buildDirectory(tools, 2, estimateTokens)).toMatchObject({ tier: "none", text: "" });
  });
});

describe("the server directory in a plan", () => {
  const all = [...tools, coreTool("read_file")];
  const setup = () => {
    const catalog = arrayCatalog(all);
    return createDisclosure({ catalog, search: substringSearch(catalog), mode: "on" });
  };

  it("is on by default at the end of the search tool, lists deferred servers only, and costs tokens", () => {
    const plan = setup().prepare({ session: "s" });
    const search = plan.metaTools[0];
    expect(search?.description).toMatch(
      /\n\nTool servers \(2\); find their tools with tool_search:\n- chat/,
    );
    expect(plan.listing).toMatch(/^Tool servers \(2\)/);
    expect(plan.stats.directoryTokens).toBeGreaterThan(0);
    expect(plan.stats.directoryTokens).toBe(estimateTokens(plan.listing ?? ""));
  });

  it("goes to the system note under native search, and is off with directory: false", () => {
    const disclosure = setup();
    const native = disclosure.prepare({ session: "s", nativeSearch: true });
    expect(native.system).toMatch(/\n\nTool servers \(2\):\n- chat \(3 tools\)/);
    const off = disclosure.prepare({ session: "s", directory: false });
    expect(off.metaTools[0]?.description).not.toMatch(/Tool servers/);
    expect(off.stats.directoryTokens).toBe(0);
    expect(off.listing).toBeUndefined();
  });

  it("stays within 1% of the context window", () => {
    const plan = setup().prepare({ session: "s", contextWindow: 2_000 });
    expect(plan.stats.directoryTokens).toBeLessThanOrEqual(20);
    expect(plan.stats.directoryTokens).toBeGreaterThan(0);
  });
});
