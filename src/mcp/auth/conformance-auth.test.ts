import { describe, expect, it } from "vitest";
import { runConformanceScenario } from "../../../test/fixtures/mcp/run-conformance-client.js";

/** Every auth/* client scenario of @modelcontextprotocol/conformance 0.1.13. The client logs in
 * in-process (`auth.openUrl` follows the suite's immediate redirect to the loopback listener),
 * as `toolsift auth login` does with a browser. */
const SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/resource-mismatch",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
];

describe("the conformance suite's auth/* client scenarios against toolsift's upstream client", () => {
  it("passes all 19", async () => {
    const failed: string[] = [];
    // one at a time, each with a generous limit: a loaded machine starts tsx slowly
    for (const scenario of SCENARIOS) {
      const output = await runConformanceScenario(scenario, 60_000);
      // the client's own output (printed when it fails) says why; the checks follow it
      const client = output.indexOf("Client exited");
      if (!output.includes("OVERALL: PASSED")) {
        failed.push(`${scenario}:\n${output.slice(Math.max(0, client), client + 3000)}`);
      }
    }
    expect(failed).toEqual([]);
  }, 1_500_000);
});
