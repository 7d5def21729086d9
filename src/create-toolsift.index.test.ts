import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "./catalog/index.js";
import { createToolSift } from "./create-toolsift.js";

const TOOLS: ToolDefinition[] = [
  { name: "create_issue", description: "Create a GitHub issue", inputSchema: { type: "object" } },
  { name: "send_message", description: "Send a Slack message", inputSchema: { type: "object" } },
  { name: "read_file", description: "Read a file from disk", inputSchema: { type: "object" } },
];

describe("createToolSift({ index })", () => {
  it("searches from a saved index exactly as from a build", () => {
    const saved = createToolSift({ tools: TOOLS }).exportIndex();
    const warnings: string[] = [];
    const sift = createToolSift({ tools: TOOLS, index: saved, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    const fresh = createToolSift({ tools: TOOLS });
    for (const query of ["issue", "slack", "file on disk"]) {
      expect(sift.search(query)).toEqual(fresh.search(query));
    }
    // the saved index follows later catalog changes like a built one
    sift.catalog.add([
      { name: "list_issues", description: "List GitHub issues", inputSchema: { type: "object" } },
    ]);
    fresh.catalog.add([
      { name: "list_issues", description: "List GitHub issues", inputSchema: { type: "object" } },
    ]);
    expect(sift.search("issues")).toEqual(fresh.search("issues"));
  });

  it("builds and warns through onWarning when the index is of other tools", () => {
    const saved = createToolSift({ tools: TOOLS.slice(1) }).exportIndex();
    const warnings: string[] = [];
    const sift = createToolSift({ tools: TOOLS, index: saved, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringMatching(/Saved search index not used: .*other tools/)]);
    expect(sift.search("issue").hits[0]?.name).toBe("create_issue");
  });
});
