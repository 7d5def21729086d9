// Issue 16, deliverable 3: under a profile, tool_search does not reveal weak matches unless
// asked; the same query on the whole catalog reveals its strong match.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/catalog/index.js";
import { createToolSift } from "../../src/create-toolsift.js";
import { loadCatalogPaths } from "../../src/node.js";
import { sharedDir } from "../shared-dir.js";

let tools: ToolDefinition[] = [];

beforeAll(async () => {
  ({ tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  }));
});

function sift(profile?: string) {
  return createToolSift({
    tools,
    tokens: "estimate",
    disclosure: { mode: "on", strategy: "reveal" },
    ...(profile
      ? {
          policy: {
            profile,
            profiles: [{ name: "filesystem", include: ["server:server-filesystem"] }],
          },
        }
      : {}),
  });
}

const search = (target: ReturnType<typeof sift>, args: Record<string, unknown>) =>
  target.execute({ session: "s", name: "tool_search", arguments: args });

const text = (outcome: Awaited<ReturnType<typeof search>>) =>
  outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");

describe("tool_search under a profile", () => {
  // two words: the profile's closest tool (search_files) holds one of them, a weak match. With
  // three or more words each held at most once by every hit, the match is incidental and
  // labelled "none" (issue 26's rule; tested below and in src/search/rank/confidence.test.ts)
  const query = "search issues";

  it("reveals the strong match on the whole catalog", async () => {
    const whole = sift();
    const outcome = await search(whole, { queries: [query] });
    expect(text(outcome)).toContain("search_issues");
    expect(whole.prepare({ session: "s" }).loaded.map((tool) => tool.name)).toContain(
      "github-mcp-server/search_issues",
    );
  });

  it("names but does not reveal the profile's weak matches, unless include_weak is set", async () => {
    const narrow = sift("filesystem");
    // the profile's closest tool (search_files) shares a word, not the task
    expect(narrow.search(query).confidence).toBe("weak");
    const outcome = await search(narrow, { queries: [query] });
    expect(text(outcome)).toContain("no strong match; closest:");
    expect(narrow.prepare({ session: "s" }).loaded).toEqual([]);
    await search(narrow, { queries: [query], include_weak: true });
    expect(narrow.prepare({ session: "s" }).loaded.length).toBeGreaterThan(0);
  });

  it("labels a longer query's one-shared-word match incidental (none), not weak", () => {
    expect(sift("filesystem").search("search issues in the repository").confidence).toBe("none");
    expect(sift().search("search issues in the repository").confidence).toBe("strong");
  });

  it("offers include_weak in the search tool's schema", () => {
    const plan = sift("filesystem").prepare({ session: "s" });
    const searchTool = plan.metaTools.find((tool) => tool.name === "tool_search");
    expect(Object.keys(searchTool?.inputSchema.properties ?? {})).toContain("include_weak");
  });
});
