import { describe, expect, it } from "vitest";
import { createToolSift, type ToolSiftOptions } from "./create-toolsift.js";

const attempt = (options: unknown) => () => createToolSift(options as ToolSiftOptions);

describe("createToolSift option names", () => {
  it("rejects a mistyped option, naming it and the closest known one", () => {
    expect(attempt({ disclosure: { mdoe: "on" } })).toThrow(
      /createToolSift's disclosure has no option "mdoe"\. Did you mean "mode"\?/,
    );
    expect(attempt({ polcy: {} })).toThrow(/no option "polcy"\. Did you mean "policy"\?/);
    expect(attempt({ budget: { totalResult: 10 } })).toThrow(/Did you mean "totalResults"\?/);
  });

  it("says where an option of another entry point goes", () => {
    expect(attempt({ servers: {} })).toThrow(/createMCPToolSift \(toolsift\/mcp\)/);
    expect(attempt({ profile: "coding" })).toThrow(/policy: \{ profile \}/);
  });

  it("lists the known options when nothing is close", () => {
    expect(attempt({ search: { zzzzzzzz: 1 } })).toThrow(/Known options: ranking, embedder/);
  });

  it("throws a ToolsiftError with code invalid_option", () => {
    try {
      createToolSift({ tokenz: "estimate" } as unknown as ToolSiftOptions);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: "invalid_option" });
    }
  });

  it("accepts every documented option", () => {
    expect(() =>
      createToolSift({
        tools: [],
        duplicates: "qualify",
        onWarning: () => {},
        disclosure: { mode: "on", withholdWeak: false, searchLimit: { default: 5 } },
        policy: { profile: "full", rules: [] },
        budget: { perToolResult: 500 },
        tokens: "estimate",
        search: { semanticWeight: 0.1 },
      }),
    ).not.toThrow();
  });
});
