import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../../../test/shared-dir.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { loadCatalogPaths } from "../../catalog/node.js";
import { ToolSearchIndex } from "../../search/index.js";
import { type SearchRequest, searchResponse } from "./search-response.js";

const index = new ToolSearchIndex();
const byName = new Map<string, ToolDefinition>();

beforeAll(async () => {
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  index.addAll(tools);
  for (const tool of tools) byName.set(tool.name, tool);
});

function request(queries: string[], extra?: Partial<SearchRequest>): SearchRequest {
  return {
    queries,
    limit: 3,
    search: (query, options) => index.search(query, options),
    candidate: (name) => byName.get(name),
    loaded: () => undefined,
    closest: () => [],
    hasLoaded: false,
    strategy: "reveal",
    names: { search: "tool_search", describe: "tool_describe", call: "tool_call" },
    maxTokens: 4000,
    count: (text) => Math.ceil(text.length / 4),
    ...extra,
  };
}

const text = (answer: ReturnType<typeof searchResponse>) =>
  (answer.result.content[0] as { text: string }).text;

describe("searchResponse with companions and confidence", () => {
  it("names a hit's finder on its line and reveals it alongside", () => {
    const answer = searchResponse(request(["retry failed gitlab pipeline"]));
    expect(text(answer)).toContain("needs project_id: get it with list_projects");
    expect(answer.found[0]).toBe("retry_pipeline");
    expect(answer.found).toContain("list_projects");
  });

  it("withholds hits that share almost nothing with the query unless asked", () => {
    const query = "book a flight to Paris";
    expect(index.search(query).confidence).toBe("none");
    const withheld = searchResponse(request([query]));
    expect(withheld.found).toEqual([]);
    expect(text(withheld)).toContain("no strong match; closest:");
    expect(text(withheld)).toContain("include_weak: true");
    const asked = searchResponse(request([query], { includeWeak: true }));
    expect(asked.found.length).toBeGreaterThan(0);
  });
});

describe("searchResponse with server: names", () => {
  it("says a server: name means no server, also beside withheld weak hits", () => {
    const query = "book a flight to Paris server:365 server:flights";
    expect(index.search(query).confidence).toBe("none");
    const withheld = text(searchResponse(request([query])));
    expect(withheld).toContain("no strong match; closest:");
    expect(withheld).toContain("server:flights names no server");
  });
});
