/** OpenAI Chat Completions and Responses: documented limits and the tool_search model table. */
import type { NativeSearchDecision, ProviderCapabilities } from "../provider-capabilities.js";

/** Limits and features of Chat Completions tools (reference/providers.md, 2026-11-21). */
export const OPENAI_CHAT_CAPABILITIES: ProviderCapabilities = {
  id: "openai-chat",
  maxToolNameLength: 64,
  namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  // 128 comes from API errors reported in 2024–2025, not from the SDK docs [secondary]
  maxTools: 128,
  supportsDeferredLoading: false,
  supportsAllowedTools: true,
  schemaDialect: "json-schema",
  // historic limit; may have been lifted [unconfirmed], staying under it is safe
  maxDescriptionLength: 1024,
};

/** Limits and features of Responses tools. */
export const OPENAI_RESPONSES_CAPABILITIES: ProviderCapabilities = {
  id: "openai-responses",
  maxToolNameLength: 64,
  namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  // the maximum number of tools per Responses request is undocumented [unconfirmed]
  supportsDeferredLoading: true,
  supportsAllowedTools: true,
  schemaDialect: "json-schema",
  maxDescriptionLength: 1024,
};

/** Major and minor of an OpenAI GPT model id (`gpt-5.4`, `gpt-5.4-mini-2026-03-05`, `gpt-6`). */
export function parseGPTModel(model: string): { major: number; minor: number } | undefined {
  const match = /^(?:openai\/)?gpt-(\d+)(?:\.(\d+))?(?=$|-)/i.exec(model);
  if (!match?.[1]) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0) };
}

/** Whether a model has the hosted `tool_search` (and client-executed tool search): gpt-5.4 or later. */
export function supportsToolSearch(model: string | undefined): boolean {
  const parsed = model === undefined ? undefined : parseGPTModel(model);
  return parsed !== undefined && (parsed.major > 5 || (parsed.major === 5 && parsed.minor >= 4));
}

/** Native search decision for the Responses API. */
export function responsesNativeSearch(model: string): NativeSearchDecision {
  if (model.trim() === "") return { native: false, reason: "no model given: client-side search" };
  return supportsToolSearch(model)
    ? { native: true, reason: `${model} is gpt-5.4 or later (hosted tool_search)` }
    : {
        native: false,
        reason: `${model} is not known to support tool_search (gpt-5.4 or later only)`,
      };
}

/** Chat Completions has no native tool search. */
export function chatNativeSearch(): NativeSearchDecision {
  return { native: false, reason: "openai-chat has no native tool search" };
}
