/** Anthropic Messages: documented limits and the model table of native tool search. */
import type { NativeSearchDecision, ProviderCapabilities } from "../provider-capabilities.js";

/** Limits and features of the Messages tool API (reference/providers.md, 2026-11-21). */
export const ANTHROPIC_CAPABILITIES: ProviderCapabilities = {
  id: "anthropic",
  // current docs say 128; older docs and many clients still use 64
  maxToolNameLength: 128,
  namePattern: /^[a-zA-Z0-9_-]{1,128}$/,
  supportsDeferredLoading: true,
  supportsAllowedTools: false,
  schemaDialect: "json-schema",
  strictToolLimit: 20,
  maxDeferredTools: 10_000,
};

// Claude tool-search table (platform docs): Fable 5, Mythos 5, Opus 4.5–4.8, Sonnet 4.5–4.6, Haiku 4.5
const CLAUDE_TOOL_SEARCH: Record<string, readonly string[]> = {
  fable: ["5"],
  mythos: ["5"],
  opus: ["4.5", "4.6", "4.7", "4.8"],
  sonnet: ["4.5", "4.6"],
  haiku: ["4.5"],
};

/** Family and version of a Claude model id (`claude-sonnet-4-5-20250929`, `anthropic.claude-opus-4-6-v1:0`, `claude-opus-4-5@20251101`). */
export function parseClaudeModel(model: string): { family: string; version: string } | undefined {
  const match =
    /claude-(opus|sonnet|haiku|fable|mythos)-(\d{1,2})(?:[-.](\d{1,2}))?(?=$|[-@:.]|_)/i.exec(
      model,
    );
  if (!match?.[1] || !match[2]) return undefined;
  return {
    family: match[1].toLowerCase(),
    version: match[3] ? `${match[2]}.${match[3]}` : match[2],
  };
}

/** Whether a Claude model is in Anthropic's tool-search table (which also gates `tool_reference`). */
export function anthropicNativeSearch(model: string): NativeSearchDecision {
  const parsed = parseClaudeModel(model);
  const supported = parsed
    ? (CLAUDE_TOOL_SEARCH[parsed.family] ?? []).includes(parsed.version)
    : false;
  if (model.trim() === "") return { native: false, reason: "no model given: client-side search" };
  return supported
    ? { native: true, reason: `${model} is in Anthropic's tool-search model table` }
    : { native: false, reason: `${model} is not in Anthropic's tool-search model table` };
}
