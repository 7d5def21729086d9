// One source for "every tool loaded" (issue 24): `toolsift report`, the inspector's cost view and
// the demo print the figures of countDefinitionTokens, one per provider, so they agree.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capture } from "./cli/__tests__/capture.js";
import { runCli } from "./cli/run-cli.js";
import { countDefinitionTokens } from "./count-definition-tokens.js";
import { createToolSift } from "./create-toolsift.js";
import { createInspectorModel } from "./inspector/index.js";

const fixture = path.resolve("test/fixtures/catalogs/example-tools.json");
const tools = JSON.parse(readFileSync(fixture, "utf8"));

describe("countDefinitionTokens", () => {
  it("counts each provider's own format: the figures differ per provider", () => {
    const sift = createToolSift({ tools });
    const all = (provider: "anthropic" | "gemini") =>
      countDefinitionTokens(sift, { session: "s", provider }).all;
    const full = sift.prepare({ session: "s" }).stats.allTokens;
    // the provider-neutral sum the demo printed for every provider is none of them
    expect(new Set([all("anthropic"), all("gemini"), full]).size).toBe(3);
  });

  it("gives the numbers `toolsift report` and the inspector show", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-cost-"));
    const catalog = path.join(dir, "tools.json");
    writeFileSync(catalog, JSON.stringify(tools));
    const io = capture();
    expect(await runCli(["report", "--catalog", catalog, "--json"], io)).toBe(0);
    const report = JSON.parse(io.out);
    const cost = await createInspectorModel(tools).cost();
    const sift = createToolSift({ tools });
    for (const [name, provider] of [
      ["anthropic", "anthropic"],
      ["openai", "openai-chat"],
      ["gemini", "gemini"],
    ] as const) {
      // report's first turn is planned for its default 200,000-token window
      const turn = { session: "x", provider, search: "client", contextWindow: 200_000 } as const;
      const tokens = countDefinitionTokens(sift, turn);
      expect(report.full[name]).toBe(tokens.all);
      expect(report.firstTurn[name]).toBe(tokens.turn);
      const shown = cost.formats.find((format) => format.provider === provider);
      expect(shown?.all).toBe(tokens.all);
    }
  });

  it("counts a natively searched turn without the deferred definitions, and all only when read", () => {
    const sift = createToolSift({ tools, disclosure: { mode: "on" } });
    const native = countDefinitionTokens(sift, {
      session: "n",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
    });
    expect(native.search).toBe("native");
    expect(native.turn).toBeLessThan(native.all);
    expect(native.all).toBe(
      countDefinitionTokens(sift, { session: "c", provider: "anthropic", search: "client" }).all,
    );
  });
});
