import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import type { ToolDefinition } from "../catalog/index.js";
import { createPolicy } from "./create-policy.js";

// the 20 real MCP servers in shared/catalogs (1,371 tools), read at run time
let tools: ToolDefinition[] = [];

beforeAll(() => {
  const directory = path.join(sharedDir(), "catalogs");
  tools = readdirSync(directory)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(path.join(directory, file), "utf8")));
});

const serversOf = (list: readonly ToolDefinition[]) =>
  [...new Set(list.map((tool) => tool.server))].sort();

describe("real catalogs", () => {
  it("loads every tool, each with a server", () => {
    expect(tools.length).toBe(1371);
    expect(tools.every((tool) => typeof tool.server === "string")).toBe(true);
  });

  it("a server:github* deny hides exactly the servers whose name starts with github", () => {
    const policy = createPolicy({ layers: [{ label: "global", deny: ["server:github*"] }] });
    const kept = policy.filter(tools);
    const expected = tools.filter((tool) => !tool.server!.startsWith("github"));
    expect(kept).toEqual(expected);
    expect(tools.length - kept.length).toBe(117);
    // server-github does not start with "github", so it stays
    expect(serversOf(kept)).toContain("server-github");
    expect(serversOf(kept)).not.toContain("github-mcp-server");
    const hidden = tools.find((tool) => tool.server === "github-mcp-server")!;
    expect(policy.explain(hidden)).toMatchObject({
      visible: false,
      layer: "global",
      rule: "deny",
      selector: "server:github*",
    });
  });

  it("coding keeps the filesystem, git and code-hosting servers only", () => {
    const kept = createPolicy({ profile: "coding" }).filter(tools);
    expect(serversOf(kept)).toEqual([
      "git-mcp-server",
      "github-mcp-server",
      "mcp-gitlab",
      "server-filesystem",
      "server-github",
    ]);
    // whole servers: nothing of theirs is named admin_*
    expect(kept.length).toBe(28 + 117 + 201 + 14 + 26);
  });

  it("minimal is a small read-only core", () => {
    const kept = createPolicy({ profile: "minimal" }).filter(tools);
    expect(kept.map((tool) => tool.name).sort()).toEqual([
      "directory_tree",
      "get_file_contents",
      "get_file_contents",
      "get_file_contents",
      "git_diff",
      "git_log",
      "git_status",
      "list_directory",
      "read_file",
      "read_multiple_files",
      "read_text_file",
      "search_files",
    ]);
    expect(kept.some((tool) => tool.annotations?.destructiveHint === true)).toBe(false);
  });

  it("a safety layer over coding hides every destructive or deleting tool", () => {
    const policy = createPolicy({
      profile: "coding",
      layers: [{ label: "safety", deny: ["*delete*", "annotation:destructiveHint"] }],
    });
    const kept = policy.filter(tools);
    expect(kept.length).toBeGreaterThan(100);
    for (const tool of kept) {
      expect(tool.name).not.toContain("delete");
      expect(tool.annotations?.destructiveHint).not.toBe(true);
    }
    const writeFile = tools.find((tool) => tool.name === "write_file")!;
    expect(policy.explain(writeFile)).toMatchObject({
      layer: "safety",
      selector: "annotation:destructiveHint",
    });
  });
});
