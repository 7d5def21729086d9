import { describe, expect, it } from "vitest";
import { PROVIDER_CAPABILITIES } from "./capabilities.js";
import { fitDescription } from "./request-warnings.js";

const LONE_SURROGATE = /\p{Cs}/u; // in u-mode a whole pair is one code point

describe("fitDescription", () => {
  it("the 1,024-character OpenAI description cap keeps the text well-formed", () => {
    const description = `${"x".repeat(1_022)}${"😀".repeat(20)}`;
    const warnings: never[] = [];
    for (const id of ["openai-chat", "openai-responses"] as const) {
      const cut = fitDescription(
        { name: "t", description, inputSchema: { type: "object" } },
        PROVIDER_CAPABILITIES[id],
        warnings,
      );
      expect(cut.length).toBeLessThanOrEqual(1_024);
      expect(LONE_SURROGATE.test(cut)).toBe(false);
      expect(cut.endsWith("…")).toBe(true);
    }
  });
});
