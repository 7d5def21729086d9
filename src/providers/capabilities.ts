/**
 * What each provider supports, as documented (reference/providers.md, 2026-11-21). Each provider
 * folder owns its entry and model table; disclosure and the shared formatting code read these
 * instead of asking which provider they serve.
 */

import { PROVIDERS, providerDefinition } from "./registry.js";

export { parseClaudeModel } from "./anthropic/capabilities.js";
export { parseGPTModel } from "./openai/capabilities.js";

/** The provider ids toolsift formats requests for. */
export type ProviderId = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** Documented limits and features of one provider's tool API. */
export interface ProviderCapabilities {
  id: ProviderId;
  /** Longest tool name the API accepts, in characters. */
  maxToolNameLength: number;
  /** Pattern every tool name must match. */
  namePattern: RegExp;
  /** Tool names must start with a letter or `_` (a leading `_` is added to others). */
  leadingLetterNames?: boolean;
  /** Most tool definitions per request, when one is known. */
  maxTools?: number;
  /** Native deferred loading (`defer_loading`) with server-side tool search exists for some models. */
  supportsDeferredLoading: boolean;
  /** The request can keep every tool but restrict which may be called (`allowed_tools` / `allowedFunctionNames`). */
  supportsAllowedTools: boolean;
  /** `json-schema`: plain JSON Schema; `openapi-3.0-subset`: Gemini's `parameters` Schema proto. */
  schemaDialect: "json-schema" | "openapi-3.0-subset";
  /** Most `strict: true` tools per request, when limited. */
  strictToolLimit?: number;
  /** Most deferred tools per request with native tool search. */
  maxDeferredTools?: number;
  /** Longest tool description, when one is enforced. */
  maxDescriptionLength?: number;
}

/** The capability table, one entry per provider (each provider folder owns its entry). */
export const PROVIDER_CAPABILITIES: Readonly<Record<ProviderId, ProviderCapabilities>> = {
  anthropic: PROVIDERS.anthropic.capabilities,
  "openai-chat": PROVIDERS["openai-chat"].capabilities,
  "openai-responses": PROVIDERS["openai-responses"].capabilities,
  gemini: PROVIDERS.gemini.capabilities,
};

/** Whether to use the provider's native tool search, and why. */
export interface NativeSearchDecision {
  native: boolean;
  reason: string;
}

/**
 * Chooses native tool search or toolsift's client-side search for a provider and model, from the
 * documented model tables: Claude models in the tool-search table (Anthropic) and gpt-5.4 or later
 * on the Responses API (OpenAI). Unknown models, Chat Completions and Gemini use client-side
 * search. `override` forces the choice either way.
 */
export function nativeSearchSupport(
  provider: ProviderId,
  model: string,
  options: { override?: "native" | "client" } = {},
): NativeSearchDecision {
  if (options.override) {
    return { native: options.override === "native", reason: `override: ${options.override}` };
  }
  // each provider decides from its own model table
  const definition = providerDefinition(provider);
  if (!definition)
    return { native: false, reason: `${String(provider)} has no native tool search` };
  // a JavaScript caller may leave the model out: each table then says "no model given"
  return definition.nativeSearch(typeof model === "string" ? model : "");
}
