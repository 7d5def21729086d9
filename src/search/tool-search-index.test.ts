import { describe, expect, it } from "vitest";
import { cpuMs } from "../../test/cpu-time.js";
import type { ToolDefinition } from "../catalog/index.js";
import { isToolsiftError } from "../errors.js";
import { ToolSearchIndex } from "./tool-search-index.js";

function tool(
  name: string,
  description: string,
  extra: Partial<ToolDefinition> = {},
): ToolDefinition {
  return { name, description, inputSchema: { type: "object", properties: {} }, ...extra };
}

const TOOLS: ToolDefinition[] = [
  tool("mcp__github__create_issue", "Create a new issue in a GitHub repository", {
    server: "github",
    inputSchema: {
      type: "object",
      properties: {
        owner: { type: "string" },
        repo: { type: "string" },
        title: { type: "string" },
      },
    },
  }),
  tool("mcp__github__list_issues", "List issues in a GitHub repository", { server: "github" }),
  tool("mcp__gitlab__create_issue", "Create a new issue in a GitLab project", { server: "gitlab" }),
  tool("mcp__slack__send_message", "Send a message to a Slack channel", { server: "slack" }),
  tool("mcp__slack__list_channels", "List the channels of a Slack workspace", { server: "slack" }),
  tool("mcp__codex__ask_codex", "Ask Codex a coding question", { server: "codex" }),
  tool("browser_take_screenshot", "Take a screenshot of the current page", {
    server: "playwright",
  }),
  tool("math.factorial", "Compute the factorial of an integer"),
  tool("DNS_updateDNSRecordsV1", "Update DNS records of a domain", {
    server: "hostinger",
    inputSchema: {
      type: "object",
      properties: { type: { type: "string", enum: ["A", "CNAME", "MX"] } },
    },
  }),
];

function build(tools: readonly ToolDefinition[] = TOOLS): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const item of tools) index.add(item);
  return index;
}

function names(index: ToolSearchIndex, query: string, limit = 5): string[] {
  return index.search(query, { limit }).hits.map((hit) => hit.name);
}

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isToolsiftError(error) ? error.code : "not a ToolsiftError";
  }
  return undefined;
}

describe("ToolSearchIndex keyword search", () => {
  it("ranks the tool whose name and description match first", () => {
    expect(names(build(), "github issue create")[0]).toBe("mcp__github__create_issue");
    expect(names(build(), "slack send")[0]).toBe("mcp__slack__send_message");
  });

  it("reads the first 20,000 characters of a pasted document and says so", () => {
    const query = `github issue create ${"lorem ipsum dolor ".repeat(150_000)}`;
    const result = build().search(query);
    expect(result.hits[0]?.name).toBe("mcp__github__create_issue");
    expect(result.truncated).toEqual({ read: expect.any(Number), length: query.trimEnd().length });
    expect(build().search("github issue create").truncated).toBeUndefined();
  });

  it("serves a raw request sentence", () => {
    expect(names(build(), "Can you please take a screenshot of this page for me?")[0]).toBe(
      "browser_take_screenshot",
    );
  });

  it("lets an exact name or name suffix win, with quotes and backticks stripped", () => {
    const index = build();
    expect(names(index, "ask_codex")[0]).toBe("mcp__codex__ask_codex");
    expect(names(index, "`math.factorial`")[0]).toBe("math.factorial");
    expect(names(index, '"mcp__gitlab__create_issue"')[0]).toBe("mcp__gitlab__create_issue");
    expect(names(index, "factorial")[0]).toBe("math.factorial");
  });

  it("matches camelCase, acronym and enum values", () => {
    expect(names(build(), "update dns record")[0]).toBe("DNS_updateDNSRecordsV1");
    expect(names(build(), "cname")[0]).toBe("DNS_updateDNSRecordsV1");
  });

  it("filters by +required, -excluded and server:", () => {
    const index = build();
    expect(names(index, "+gitlab issue")).toEqual(["mcp__gitlab__create_issue"]);
    expect(names(index, "create issue -gitlab")).not.toContain("mcp__gitlab__create_issue");
    expect(names(index, "issue server:GitHub").every((name) => name.includes("github"))).toBe(true);
    expect(names(index, "issue server:github").length).toBe(2);
  });

  it("orders by score then name, defaults to 5 hits and honours the limit", () => {
    const index = build();
    const result = index.search("issue", { cut: false });
    expect(result.kind).toBe("keyword");
    const scores = result.hits.map((hit) => hit.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(index.search("list", { limit: 1 }).hits).toHaveLength(1);
    const many = build(Array.from({ length: 30 }, (_, n) => tool(`alpha_${n}`, "alpha tool")));
    expect(many.search("alpha").hits).toHaveLength(5);
    expect(many.search("alpha", { limit: 25 }).hits).toHaveLength(25);
    expect(many.rank("alpha", 30)).toHaveLength(30);
  });

  it("cuts weak tails in search but not in rank", () => {
    const weak = Array.from({ length: 6 }, (_, n) =>
      tool(`other_${n}`, "A long description that mentions delta once among many other words here"),
    );
    const index = build([tool("alpha_beta_gamma", "Alpha beta gamma delta"), ...weak]);
    expect(index.search("alpha beta gamma delta").hits.map((hit) => hit.name)).toEqual([
      "alpha_beta_gamma",
    ]);
    expect(index.rank("alpha beta gamma delta", 10)).toHaveLength(7);
  });

  it("explains which terms and fields scored", () => {
    const hit = build().search("slack message", { explain: true }).hits[0];
    expect(hit?.name).toBe("mcp__slack__send_message");
    const fields = new Set(hit?.explanation?.map((part) => `${part.term}:${part.field}`));
    expect(fields.has("message:name")).toBe(true);
    expect(fields.has("slack:server")).toBe(true);
    expect(build().search("slack message").hits[0]?.explanation).toBeUndefined();
  });

  it("returns suggestions and a server summary instead of a dead end", () => {
    const result = build().search("screenshoot");
    expect(result.hits).toEqual([]);
    expect(result.suggestions?.[0]).toBe("browser_take_screenshot");
    expect(result.servers).toContainEqual({ server: "slack", tools: 2 });
  });

  it("still ranks a word that every tool contains (no zero idf dead end)", () => {
    const index = build([
      tool("github_create_issue", "Create a GitHub issue"),
      tool("github_list_issues", "List GitHub issues"),
    ]);
    expect(index.search("github").hits.map((hit) => hit.name)).toEqual([
      "github_create_issue",
      "github_list_issues",
    ]);
  });

  it("browses in name order for an empty query", () => {
    const result = build().search("   ", { limit: 3 });
    expect(result.kind).toBe("browse");
    expect(result.hits.map((hit) => hit.name)).toEqual([
      "DNS_updateDNSRecordsV1",
      "browser_take_screenshot",
      "math.factorial",
    ]);
    expect(
      build()
        .search("server:slack")
        .hits.map((hit) => hit.name),
    ).toEqual(["mcp__slack__list_channels", "mcp__slack__send_message"]);
  });

  it("applies the filter option and reports the filtered total", () => {
    const result = build().search("issue", { filter: (t) => t.server === "gitlab" });
    expect(result.total).toBe(1);
    expect(result.hits.map((hit) => hit.name)).toEqual(["mcp__gitlab__create_issue"]);
  });
});

describe("ToolSearchIndex select and regex", () => {
  it("select: fetches exact names in order, deduplicated, and reports missing", () => {
    const result = build().search(
      "select:math.factorial, nope ,mcp__slack__send_message,math.factorial",
    );
    expect(result.kind).toBe("select");
    expect(result.hits.map((hit) => hit.name)).toEqual([
      "math.factorial",
      "mcp__slack__send_message",
    ]);
    expect(result.missing).toEqual(["nope"]);
  });

  it("regex mode matches names and descriptions case-insensitively", () => {
    const index = build();
    expect(names(index, "/^mcp__slack__/")).toEqual([
      "mcp__slack__list_channels",
      "mcp__slack__send_message",
    ]);
    expect(index.search("SCREENSHOT", { mode: "regex" }).hits[0]?.name).toBe(
      "browser_take_screenshot",
    );
  });

  it("regex mode stays fast on a catastrophic pattern", () => {
    const long = "a".repeat(1_900);
    const index = build([tool("aaa", long), tool("bbb", `${long}b`)]);
    const searchMs = cpuMs(() => {
      index.search("/(a+)+$/");
      index.search("/(x+x+)+y/");
    });
    expect(searchMs).toBeLessThan(500); // CPU guard: backtracking would take minutes
  });
});

describe("ToolSearchIndex errors", () => {
  it("rejects queries without letters or digits", () => {
    expect(errorCode(() => build().search("?!  ..."))).toBe("invalid_query");
    expect(errorCode(() => build().search("select:  ,"))).toBe("invalid_query");
  });

  it("rejects bad and overlong regexes", () => {
    expect(errorCode(() => build().search("/(unclosed/"))).toBe("invalid_regex");
    expect(errorCode(() => build().search(`/${"a".repeat(201)}/`))).toBe("invalid_regex");
    expect(errorCode(() => build().search("a(b", { mode: "regex" }))).toBe("invalid_regex");
  });

  it("rejects limits out of range", () => {
    expect(errorCode(() => build().search("issue", { limit: 0 }))).toBe("invalid_option");
    expect(errorCode(() => build().search("issue", { limit: 26 }))).toBe("invalid_option");
    expect(errorCode(() => build().search("issue", { limit: 2.5 }))).toBe("invalid_option");
    expect(errorCode(() => build().rank("issue", 0))).toBe("invalid_option");
  });

  it("a query of stop words only still finds tools named with them", () => {
    const index = new ToolSearchIndex();
    for (const name of ["about_page", "get_it", "ok", "ok_two", "list_files"]) {
      index.add({ name, description: "d", inputSchema: { type: "object" } });
    }
    expect(index.rank("about", 5)).toEqual(["about_page"]);
    // the exact name first, then the other tool whose name holds the word
    expect(index.rank("ok", 5)).toEqual(["ok", "ok_two"]);
    expect(index.search("it").hits.map((hit) => hit.name)).toEqual(["get_it"]);
    expect(index.search("the").hits).toEqual([]);
  });

  it("reads a joined field only up to its 6,000-character clip, cutting the word at the edge", () => {
    // parameter descriptions join with spaces: 2,997 + 1 + 2,996 + 1 = 5,995 characters, then
    // "platypus" straddles the cut (only "platy" is read) and "zebrafish" lies beyond it
    const filler = "x".repeat(2_988);
    const properties = {
      a: { type: "string", description: `kangaroo ${filler}` },
      b: { type: "string", description: `wombatsss ${filler.slice(2)}` },
      c: { type: "string", description: "platypus zebrafish" },
    };
    const index = new ToolSearchIndex();
    index.add(tool("animal_tool", "d", { inputSchema: { type: "object", properties } }));
    index.add(tool("other_tool", "d", { description: "platy" }));
    expect(index.rank("kangaroo", 5)).toEqual(["animal_tool"]);
    expect(index.rank("zebrafish", 5)).toEqual([]);
    expect(index.rank("platy", 5).sort()).toEqual(["animal_tool", "other_tool"]);
  });
});
