// Issue 10, "how it is proven": the 20 real catalogs loaded the two obvious ways (fromMCPToolsList
// per file without a server, and the folder loader) give the same plan for every provider:
// deferral active, the first turn within 1% of everything loaded (server directory included),
// and never more tools than a provider takes.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fromMCPToolsList, type ToolDefinition } from "../../src/catalog/index.js";
import { createToolSift } from "../../src/create-toolsift.js";
import { loadCatalogPaths } from "../../src/node.js";
import { PROVIDER_CAPABILITIES, type ProviderId } from "../../src/providers/index.js";
import { o200kCounter, type TokenCounter } from "../../src/tokens/index.js";
import { sharedDir } from "../shared-dir.js";

const dir = path.join(sharedDir(), "catalogs");

// o200k over 1,371 definitions is the slow part: count each distinct text once for the suite
const memo = new Map<string, number>();
const tokens: TokenCounter = {
  name: o200kCounter.name,
  count: (text) => memo.get(text) ?? memo.set(text, o200kCounter.count(text)).get(text) ?? 0,
};

/** Per file, as a host holding raw tools/list results would do it; real results carry no server,
 * and without one a name served twice cannot be qualified, so the first file's tool is kept. */
function perFile(): ToolDefinition[] {
  const seen = new Set<string>();
  const tools: ToolDefinition[] = [];
  for (const file of readdirSync(dir).sort()) {
    const listed = fromMCPToolsList(JSON.parse(readFileSync(path.join(dir, file), "utf8")), {
      nameRule: "lenient",
    });
    for (const tool of listed) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      tools.push(tool);
    }
  }
  return tools;
}

const turns: { provider: ProviderId; model?: string; native: boolean }[] = [
  { provider: "anthropic", model: "claude-sonnet-4-6", native: true },
  { provider: "anthropic", model: "claude-3-haiku-20240307", native: false },
  { provider: "openai-chat", model: "gpt-4.1", native: false },
  { provider: "openai-responses", model: "gpt-4.1", native: false },
  { provider: "gemini", model: "gemini-2.5-pro", native: false },
];

describe("the 20 real catalogs, loaded the obvious ways", () => {
  let loads: { label: string; tools: ToolDefinition[] }[] = [];
  beforeAll(async () => {
    const folder = await loadCatalogPaths([dir], { nameRule: "lenient" });
    loads = [
      { label: "fromMCPToolsList per file, no server", tools: perFile() },
      { label: "loadCatalogPaths on the folder", tools: folder.tools },
    ];
  });

  it("give the same deferred plan for every provider, within 1% of all-loaded", () => {
    expect(loads[0]?.tools.length).toBe(1_334);
    expect(loads[1]?.tools.length).toBe(1_371);
    const figures: string[] = [];
    for (const { provider, model, native } of turns) {
      const shapes = loads.map(({ label, tools }) => {
        const sift = createToolSift({ tools, tokens, onWarning: () => {} });
        const turn = sift.prepare({
          session: "s",
          provider,
          contextWindow: 200_000,
          ...(model ? { model } : {}),
        });
        const plan = turn.plan;
        expect(turn.mode, `${label} ${provider}`).toBe(native ? "native" : "client");
        expect(plan.active, `${label} ${provider}: ${plan.reason}`).toBe(true);
        expect(plan.stats.directoryTokens, label).toBeGreaterThan(0);
        const first =
          plan.stats.loadedTokens + plan.stats.metaTokens + tokens.count(turn.system ?? "");
        expect(first / plan.stats.allTokens, `${label} ${provider}`).toBeLessThanOrEqual(0.01);
        const limit = PROVIDER_CAPABILITIES[provider].maxTools;
        const sent = native ? plan.loaded.length + 1 : plan.loaded.length + plan.metaTools.length;
        if (limit !== undefined) expect(turn.tools.length).toBeLessThanOrEqual(limit);
        figures.push(
          `${provider}${native ? " native" : ""} · ${label}: first turn ${first} of ${plan.stats.allTokens} tokens (${((100 * first) / plan.stats.allTokens).toFixed(2)}%), ${sent} tools sent, directory ${plan.stats.directoryTokens} tokens`,
        );
        return {
          active: plan.active,
          loaded: plan.loaded.map((tool) => tool.name),
          meta: plan.metaTools.map((tool) => tool.name),
          mode: turn.mode,
        };
      });
      expect(shapes[0]).toEqual(shapes[1]);
    }
    console.log(figures.join("\n"));
  });

  it("OpenAI Chat never receives more than 128 tools, even when the host declares every tool core", () => {
    const tools = (loads[1]?.tools ?? []).map((tool) => ({ ...tool, core: true }));
    const sift = createToolSift({ tools, tokens, onWarning: () => {} });
    const turn = sift.prepare({ session: "s", provider: "openai-chat", contextWindow: 1_000_000 });
    expect(turn.tools.length).toBe(128);
    expect(turn.plan.reason).toMatch(/over the provider's limit of 128/);
    // the rest stay reachable through search
    expect(turn.plan.deferred.length).toBe(1_371 - 127);
  });
});
