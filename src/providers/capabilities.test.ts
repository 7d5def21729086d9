import { describe, expect, it } from "vitest";
import { parseClaudeModel } from "./anthropic/capabilities.js";
import { nativeSearchSupport, PROVIDER_CAPABILITIES } from "./capabilities.js";

describe("PROVIDER_CAPABILITIES", () => {
  it("encodes the documented limits", () => {
    expect(PROVIDER_CAPABILITIES["openai-chat"].maxTools).toBe(128);
    expect(PROVIDER_CAPABILITIES.gemini.maxTools).toBe(512);
    expect(PROVIDER_CAPABILITIES.anthropic.strictToolLimit).toBe(20);
    expect(PROVIDER_CAPABILITIES.gemini.namePattern.test("1abc")).toBe(false);
    expect(PROVIDER_CAPABILITIES["openai-responses"].namePattern.test("a".repeat(65))).toBe(false);
    expect(PROVIDER_CAPABILITIES.anthropic.namePattern.test("a".repeat(128))).toBe(true);
  });
});

describe("nativeSearchSupport", () => {
  it.each([
    ["claude-sonnet-4-5-20250929", true],
    ["claude-opus-4-6", true],
    ["claude-haiku-4-5@20251001", true],
    ["anthropic.claude-opus-4-8-v1:0", true],
    ["claude-fable-5", true],
    ["claude-opus-4-1-20250805", false],
    ["claude-opus-4-20250514", false],
    ["claude-3-7-sonnet-20250219", false],
    ["claude-sonnet-5", false],
    ["mystery-model", false],
  ])("anthropic %s → native %s", (model, native) => {
    expect(nativeSearchSupport("anthropic", model).native).toBe(native);
  });

  it.each([
    ["gpt-5.4", true],
    ["gpt-5.4-mini-2026-03-05", true],
    ["gpt-5.5", true],
    ["gpt-6", true],
    ["gpt-5.2", false],
    ["gpt-5", false],
    ["gpt-4o", false],
    ["o3", false],
  ])("openai-responses %s → native %s", (model, native) => {
    expect(nativeSearchSupport("openai-responses", model).native).toBe(native);
  });

  it("says no model was given instead of printing an empty model name", () => {
    for (const provider of ["anthropic", "openai-responses"] as const) {
      for (const model of ["", "  ", undefined as unknown as string]) {
        const decision = nativeSearchSupport(provider, model);
        expect(decision).toEqual({ native: false, reason: "no model given: client-side search" });
      }
    }
    expect(nativeSearchSupport("gemini", "").reason).toBe("gemini has no native tool search");
  });

  it("never uses native search on Chat Completions or Gemini, unless overridden", () => {
    expect(nativeSearchSupport("openai-chat", "gpt-5.4").native).toBe(false);
    expect(nativeSearchSupport("gemini", "gemini-2.5-pro").native).toBe(false);
    expect(nativeSearchSupport("anthropic", "claude-opus-4-1", { override: "native" })).toEqual({
      native: true,
      reason: "override: native",
    });
    expect(nativeSearchSupport("anthropic", "claude-opus-4-6", { override: "client" }).native).toBe(
      false,
    );
  });

  it("parses Claude ids without mistaking a date for a minor version", () => {
    expect(parseClaudeModel("claude-opus-4-20250514")).toEqual({ family: "opus", version: "4" });
    expect(parseClaudeModel("claude-sonnet-4-6")).toEqual({ family: "sonnet", version: "4.6" });
  });
});
