// Measures disclosure on the 20 real MCP catalogs in shared/catalogs (1,371 tools): search
// response size at the default limit, and the cost of prepare. Figures are printed for the report.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../../test/shared-dir.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { textOf } from "../__fixtures__/tools.js";
import { createDisclosure } from "../create-disclosure.js";
import type { SearchFunction } from "../types.js";
import { estimateTokens } from "./estimate-tokens.js";

function loadCatalogs(): ToolDefinition[] {
  const folder = path.join(sharedDir(), "catalogs");
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  for (const file of readdirSync(folder).sort()) {
    const parsed = JSON.parse(readFileSync(path.join(folder, file), "utf8"));
    const list: ToolDefinition[] = Array.isArray(parsed) ? parsed : parsed.tools;
    for (const tool of list) {
      const server = tool.server ?? path.basename(file, ".json");
      // two servers share some names; qualify the later ones as a catalog would
      const name = seen.has(tool.name) ? `${server}__${tool.name}` : tool.name;
      seen.add(name);
      tools.push({ ...tool, name, server, handler: () => "ok" });
    }
  }
  return tools;
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** A stand-in for the real engine: ranks by how many query words a tool's name and description hold. */
function overlapSearch(tools: readonly ToolDefinition[]): SearchFunction {
  const bags = new Map(
    tools.map((tool) => [
      tool.name,
      new Set(words(`${tool.name.replace(/_/g, " ")} ${tool.description}`)),
    ]),
  );
  return (query, options) => {
    const terms = words(query);
    const scored = tools
      .filter((tool) => options.filter?.(tool) ?? true)
      .map((tool) => ({
        tool,
        score: terms.filter((term) => bags.get(tool.name)?.has(term)).length,
      }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1))
      .slice(0, options.limit ?? 5);
    return {
      query,
      kind: "keyword",
      total: tools.length,
      hits: scored.map((hit) => ({ name: hit.tool.name, score: hit.score, tool: hit.tool })),
    };
  };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

describe("real catalogs (1,371 tools)", () => {
  const tools = loadCatalogs();
  const catalog = { list: () => tools, fingerprint: () => "real" };

  it("a search response at the default limit has a median of at most 400 tokens (chars/4)", async () => {
    expect(tools.length).toBe(1371);
    const disclosure = createDisclosure({ catalog, search: overlapSearch(tools), mode: "on" });
    // queries: the first words of every 5th tool's description, as a model might phrase a need
    const queries = tools
      .filter((_, index) => index % 5 === 0)
      .map((tool) => words(tool.description).slice(0, 4).join(" "));
    const sizes: number[] = [];
    for (const query of queries.filter(Boolean)) {
      const outcome = await disclosure.execute({
        session: "m",
        name: "tool_search",
        arguments: { queries: [query] },
      });
      sizes.push(estimateTokens(textOf(outcome)));
      disclosure.store.clear("m");
    }
    const median = percentile(sizes, 0.5);
    console.log(
      `search response tokens (chars/4) over ${sizes.length} queries: median ${median}, p90 ${percentile(sizes, 0.9)}, max ${Math.max(...sizes)}`,
    );
    expect(median).toBeLessThanOrEqual(400);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(600); // the response budget
  });

  it("an unchanged prepare is served from the cache (the same plan; times printed)", () => {
    const disclosure = createDisclosure({
      catalog,
      search: overlapSearch(tools),
      listing: true,
      contextWindow: 200_000,
    });
    let started = performance.now();
    const plan = disclosure.prepare({ session: "s" });
    const cold = performance.now() - started;
    const runs = 2_000;
    started = performance.now();
    for (let run = 0; run < runs; run += 1) disclosure.prepare({ session: "s" });
    const warm = (performance.now() - started) / runs;
    // the cache, not a clock, is what is checked: a repeat returns the very plan, and no new entry
    expect(disclosure.prepare({ session: "s" })).toBe(plan);
    expect(disclosure.metrics().caches.plans.size).toBe(1);
    console.log(
      `prepare over 1,371 tools: cold ${cold.toFixed(1)} ms, cached ${(warm * 1000).toFixed(1)} µs; ` +
        `all definitions ${plan.stats.allTokens} tokens → first turn ${plan.stats.loadedTokens + plan.stats.metaTokens} tokens ` +
        `(listing ${plan.stats.listingTokens}, tier ${plan.stats.listingTier}); ${plan.reason}`,
    );
    disclosure.store.reveal("s", ["create_issue"]);
    started = performance.now();
    const revealed = disclosure.prepare({ session: "s" });
    const afterReveal = performance.now() - started;
    console.log(`prepare after a reveal (new plan, warm memos): ${afterReveal.toFixed(2)} ms`);
    expect(revealed.loaded.map((tool) => tool.name)).toContain("create_issue");
    expect(plan.active).toBe(true);
    expect(plan.stats.listingTokens).toBeLessThanOrEqual(4_000);
  });
});
