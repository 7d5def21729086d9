import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";
import { createPolicy } from "./create-policy.js";
import { unmatchedSelectors } from "./unmatched-selectors.js";

const tool = (name: string, server: string): ToolDefinition => ({
  name,
  server,
  description: `${name} of ${server}`,
  inputSchema: { type: "object" },
});
const tools = [
  tool("slack_post_message", "server-slack"),
  tool("delete_repository", "server-github"),
  tool("read_file", "server-filesystem"),
];

describe("unmatchedSelectors", () => {
  it("names a server selector that picks nothing, with the servers that hold its text", () => {
    const policy = createPolicy({ layers: [{ label: "host", deny: ["server:slack"] }] });
    expect(unmatchedSelectors(policy, tools)).toEqual([
      'Policy layer "host" deny selector "server:slack" matches no tool in the catalog, so it hides nothing. Did you mean "server:server-slack"?',
    ]);
  });

  it("suggests the closest tool name for a misspelt name selector", () => {
    const policy = createPolicy({ layers: [{ label: "safety", deny: ["delete_repsitory"] }] });
    expect(unmatchedSelectors(policy, tools)[0]).toMatch(/Did you mean "delete_repository"\?/);
  });

  it("says nothing for selectors that match, or before any tool is loaded", () => {
    const policy = createPolicy({
      layers: [{ label: "safety", deny: ["*delete*", "server:server-*"], allow: ["*"] }],
    });
    expect(unmatchedSelectors(policy, tools)).toEqual([]);
    const unknown = createPolicy({ layers: [{ label: "host", deny: ["server:nowhere"] }] });
    expect(unmatchedSelectors(unknown, [])).toEqual([]);
  });
});

describe("createToolSift warns once about a rule that does nothing", () => {
  it("at creation and when a layer is set later", () => {
    const warnings: string[] = [];
    const sift = createToolSift({
      tools,
      policy: { rules: [{ label: "host", deny: ["server:slack"] }] },
      onWarning: (message) => warnings.push(message),
    });
    expect(warnings.filter((w) => w.includes('"server:slack"'))).toHaveLength(1);
    sift.policy.setLayer({ label: "agent", allow: ["tag:nothing"] });
    expect(warnings.filter((w) => w.includes('"tag:nothing"'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('"server:slack"'))).toHaveLength(1);
  });
});
