import { describe, expect, it } from "vitest";
import { InvalidToolError, isToolsiftError, ToolNotFoundError, ToolsiftError } from "./errors.js";

describe("errors", () => {
  it("names every issue of an InvalidToolError in the message", () => {
    const error = new InvalidToolError([
      { tool: "a", code: "name_invalid", message: "bad name" },
      { tool: "b", code: "schema_invalid", message: "bad schema" },
    ]);
    expect(error.code).toBe("invalid_tool");
    expect(error.message).toContain("a: bad name");
    expect(error.message).toContain("b: bad schema");
    expect(isToolsiftError(error)).toBe(true);
    expect(isToolsiftError(new Error("x"))).toBe(false);
  });

  it("lists suggestions for an unknown tool", () => {
    const error = new ToolNotFoundError("gh_pr_lst", ["github_list_prs"]);
    expect(error.message).toBe('Unknown tool "gh_pr_lst". Closest: github_list_prs.');
    expect(error).toBeInstanceOf(ToolsiftError);
  });
});
