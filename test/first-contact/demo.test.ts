// `npm run demo` and the provider examples as a newcomer runs them (issue 10, deliverable 8): the 20 real catalogs, search,
// the first-turn plans, one round trip per provider through its official SDK against a local
// mock server, and the savings table. The timeout is a hang guard, not a speed claim.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../shared-dir.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("npm run demo", () => {
  it("prints search, plans, a round trip for each of the four providers and the savings", () => {
    const output = execFileSync("npm", ["run", "-s", "demo"], {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, TOOLSIFT_SHARED: sharedDir(), NO_COLOR: "1" },
    });
    expect(output).toMatch(/^Loaded 1,371 tools from 20 MCP servers/m);
    // server:slack finds server-slack's tools
    expect(output).toMatch(/“server:slack message”\n {3}→ slack_/);
    expect(output).toContain("Anthropic (claude-sonnet-4-6): native search");
    expect(output).toMatch(/OpenAI Chat \(gpt-4\.1\): client search — the request carries 1 tool/);
    // the round trips: each ends with the model's final answer after a real dispatched call
    expect(output).toMatch(/Claude searched and called:\n {2}github-mcp-server\/create_issue ran/);
    expect(output).toContain("  Claude: Done: the issue is open.");
    expect(output).toMatch(
      /OpenAI Chat turn 1: sent 1 tool\(s\): tool_search\n {2}tool_search ran → found /,
    );
    expect(output).toMatch(/OpenAI Responses \(gpt-5\.4\): native search over \d+ namespaces/);
    expect(output).toMatch(
      /the model opened github-mcp-server_\d+ and called:\n {2}github-mcp-server\/create_issue ran/,
    );
    expect(output).toMatch(
      /Gemini turn 2: declared \d+ function\(s\)\n {2}github-mcp-server\/create_issue ran/,
    );
    expect(output).toContain("  Gemini: Done: the issue is open.");
    expect(output.match(/GPT: Done: the issue is open\./g)).toHaveLength(2);
    for (const row of ["Anthropic, native search", "OpenAI Chat", "OpenAI Responses", "Gemini"]) {
      expect(output).toMatch(new RegExp(`^${row} +[\\d,]+ +[\\d,]+ +\\d+\\.\\d%$`, "m"));
    }
    // "every tool loaded" is each provider's own format (issue 24: it was one neutral figure for
    // all), the same number for both Anthropic rows, as `toolsift report` prints it
    const loaded = (row: string) =>
      new RegExp(`^${row} +([\\d,]+)`, "m").exec(output)?.[1] ?? "none";
    expect(loaded("Anthropic, native search")).toBe(loaded("Anthropic, toolsift search"));
    expect(loaded("Anthropic, native search")).not.toBe(loaded("Gemini"));
    expect(loaded("OpenAI Chat")).not.toBe(loaded("Gemini"));
    expect(output).toMatch(/^Done in \d+\.\d s\.$/m);
    expect(output).not.toMatch(/undefined|NaN|o200k/);
  }, 120_000);
});

describe("a provider example without its API key", () => {
  it.each([
    ["anthropic-native.ts", "ANTHROPIC_API_KEY"],
    ["openai-responses.ts", "OPENAI_API_KEY"],
    ["gemini.ts", "GEMINI_API_KEY"],
  ])(
    "%s says which key to set and points to the demo, without a stack trace",
    (file, key) => {
      const env = { ...process.env };
      for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"])
        delete env[name];
      const run = spawnSync(
        path.join(root, "node_modules/.bin/tsx"),
        [path.join(root, "examples", file)],
        { cwd: root, encoding: "utf8", timeout: 60_000, env },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`Set ${key} to run this example against the real API.`);
      expect(run.stderr).toContain("npm run demo");
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
    60_000,
  );
});
