import { describe, expect, it } from "vitest";
import { runConformanceScenario } from "../../test/fixtures/mcp/run-conformance-client.js";

/** The non-auth client scenarios of @modelcontextprotocol/conformance 0.1.13; the auth/* ones
 * run in src/mcp/auth/conformance-auth.test.ts. */
const SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"];

describe("the MCP conformance suite's client scenarios against toolsift's upstream client", () => {
  it("passes initialize, tools_call, elicitation defaults and sse-retry", async () => {
    const failed: string[] = [];
    // one at a time: sse-retry measures how long the client waits before it reconnects
    for (const scenario of SCENARIOS) {
      const output = await runConformanceScenario(scenario);
      if (!output.includes("OVERALL: PASSED")) failed.push(`${scenario}:\n${output.slice(-3000)}`);
    }
    expect(failed).toEqual([]);
  }, 120_000);
});
