import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { isToolsiftError } from "../errors.js";
import { compileSelector, compileSelectors, matchesSelector, parseSelector } from "./selector.js";

function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return { name, description: "", inputSchema: { type: "object" }, ...extra };
}

function problemOf(selector: unknown): string {
  const parsed = parseSelector(selector);
  if (!("problem" in parsed)) throw new Error(`expected ${String(selector)} to be invalid`);
  return parsed.problem;
}

describe("name selectors", () => {
  it("match exact names ignoring case by default, exactly with caseSensitive", () => {
    expect(matchesSelector(tool("read_file"), "read_file")).toBe(true);
    expect(matchesSelector(tool("Read_File"), "read_file")).toBe(true);
    expect(matchesSelector(tool("Read_File"), "read_file", { caseSensitive: true })).toBe(false);
    expect(matchesSelector(tool("read_file2"), "read_file")).toBe(false);
  });

  it("a deny glob catches every case: *delete* hides DELETE_x", () => {
    expect(matchesSelector(tool("DELETE_x"), "*delete*")).toBe(true);
    expect(matchesSelector(tool("repo_Delete"), "*delete*")).toBe(true);
    expect(matchesSelector(tool("DELETE_x"), "*delete*", { caseSensitive: true })).toBe(false);
  });

  it("match globs with * crossing /, . and :", () => {
    expect(matchesSelector(tool("github_create_issue"), "github_*")).toBe(true);
    expect(matchesSelector(tool("gitlab_create_issue"), "github_*")).toBe(false);
    expect(matchesSelector(tool("fs/delete_file"), "*delete*")).toBe(true);
    expect(matchesSelector(tool("a.b:delete"), "*delete*")).toBe(true);
    expect(matchesSelector(tool(".hidden_delete"), "*delete")).toBe(true);
    expect(matchesSelector(tool("git_push"), "git_?ush")).toBe(true);
  });

  it("expand braces", () => {
    const selector = "mcp__{github,gitlab}__list_*";
    expect(matchesSelector(tool("mcp__github__list_issues"), selector)).toBe(true);
    expect(matchesSelector(tool("mcp__gitlab__list_mrs"), selector)).toBe(true);
    expect(matchesSelector(tool("mcp__gitea__list_issues"), selector)).toBe(false);
    expect(matchesSelector(tool("mcp__github__get_issue"), selector)).toBe(false);
  });

  it("take name: for names that hold a colon", () => {
    expect(matchesSelector(tool("github:create_issue"), "name:github:create_issue")).toBe(true);
    expect(matchesSelector(tool("github:create_issue"), "name:github:*")).toBe(true);
    expect(compileSelector("name:x").kind).toBe("name");
  });
});

describe("field selectors", () => {
  const full = tool("t", {
    server: "github-mcp-server",
    category: "Code",
    tags: ["Coding", "vcs"],
    profiles: ["coding", "review"],
    annotations: { readOnlyHint: true, destructiveHint: false },
  });
  const bare = tool("t");

  it("server: matches the server ignoring case by default; tools without one never match", () => {
    expect(matchesSelector(full, "server:github*")).toBe(true);
    expect(matchesSelector(full, "server:GitHub*")).toBe(true);
    expect(matchesSelector(full, "server:GitHub*", { caseSensitive: true })).toBe(false);
    expect(matchesSelector(full, "server:gitlab*")).toBe(false);
    expect(matchesSelector(bare, "server:*")).toBe(false);
  });

  it("category: matches case-insensitively; tools without one never match", () => {
    expect(matchesSelector(full, "category:code")).toBe(true);
    expect(matchesSelector(full, "category:{filesystem,code}")).toBe(true);
    expect(matchesSelector(full, "category:c*")).toBe(true);
    expect(matchesSelector(full, "category:git")).toBe(false);
    expect(matchesSelector(bare, "category:*")).toBe(false);
  });

  it("tag: matches any tag case-insensitively", () => {
    expect(matchesSelector(full, "tag:coding")).toBe(true);
    expect(matchesSelector(full, "tag:VCS")).toBe(true);
    expect(matchesSelector(full, "tag:shell")).toBe(false);
    expect(matchesSelector(bare, "tag:*")).toBe(false);
  });

  it("profile: matches declared profiles only", () => {
    expect(matchesSelector(full, "profile:review")).toBe(true);
    expect(matchesSelector(full, "profile:rev*")).toBe(true);
    expect(matchesSelector(full, "profile:minimal")).toBe(false);
    expect(matchesSelector(bare, "profile:*")).toBe(false);
  });

  it("annotation: matches annotation keys whose value is true", () => {
    expect(matchesSelector(full, "annotation:readOnlyHint")).toBe(true);
    expect(matchesSelector(full, "annotation:destructiveHint")).toBe(false);
    expect(matchesSelector(full, "annotation:*Hint")).toBe(true);
    expect(matchesSelector(bare, "annotation:*")).toBe(false);
  });
});

describe("invalid selectors", () => {
  it("name an unknown prefix, suggest the closest and explain name:", () => {
    const problem = problemOf("categry:files");
    expect(problem).toContain('unknown prefix "categry:"');
    expect(problem).toContain('Did you mean "category"?');
    expect(problem).toContain('"name:categry:files"');
    expect(problemOf("Server:x")).toContain('Did you mean "server"?');
  });

  it("refuse empty, padded, prefix-only, negated and non-string selectors", () => {
    expect(problemOf("")).toContain("Empty selector");
    expect(problemOf("   ")).toContain("Empty selector");
    expect(problemOf(" github_*")).toContain('Write "github_*"');
    expect(problemOf("tag:")).toContain('no pattern after "tag:"');
    expect(problemOf("!github_*")).toContain("negation is not supported");
    expect(problemOf("server:!x")).toContain("negation is not supported");
    expect(problemOf(42)).toContain("not a string");
    expect(problemOf(null)).toContain("not a string");
  });

  it("throw invalid_option from matchesSelector", () => {
    try {
      matchesSelector(tool("x"), "categry:files");
      expect.unreachable();
    } catch (error) {
      expect(isToolsiftError(error) && error.code).toBe("invalid_option");
    }
  });

  it("report every invalid selector of a list at once, naming the list", () => {
    expect(() => compileSelectors(["ok_*", "", "tga:x"], 'Layer "agent" allow')).toThrow(
      /Layer "agent" allow: 2 invalid selector\(s\): Empty selector.*unknown prefix "tga:"/,
    );
    expect(() => compileSelectors("github_*", "Layer x deny")).toThrow(/must be an array/);
  });
});

describe("compilation", () => {
  it("compiles each selector once", () => {
    expect(compileSelector("server:git*")).toBe(compileSelector("server:git*"));
  });
});
