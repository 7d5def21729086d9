// The AI SDK example (examples/ai-sdk-agent.ts) as a user runs it: the 20 real catalogs, a
// scripted model, search → activate → call, and the result within its 800-token budget.
import { describe, expect, it } from "vitest";
import { runAgentExample } from "../../examples/ai-sdk-agent.js";

describe("examples/ai-sdk-agent.ts", () => {
  it("finds, activates and calls a GitHub tool among 1,371 and budgets its result", async () => {
    const run = await runAgentExample();
    expect(run.catalogSize).toBe(1_371);
    // only the search tool first; the revealed tools join it in the next step
    expect(run.offeredPerStep[0]).toBe(1);
    expect(run.offeredPerStep[1]).toBeGreaterThan(1);
    expect(run.offeredPerStep[1]).toBeLessThan(20);
    expect(run.calls.map((call) => call.tool)).toEqual([
      "tool_search",
      "github-mcp-server_list_pull_requests",
    ]);
    // 500 rows of JSON cut to 800 tokens (o200k: roughly 4 characters a token at most)
    expect(run.calls[1]?.outputChars).toBeLessThan(800 * 5);
    expect(run.text).toBe("Here are the open pull requests.");
  });
});
