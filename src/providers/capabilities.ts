/**
 * What each provider supports, as documented (reference/providers.md, 2026-11-21). Each provider
 * folder owns its entry and model table; disclosure and the shared formatting code read these
 * instead of asking which provider they serve.
 */

import type {
  NativeSearchDecision,
  ProviderCapabilities,
  ProviderId,
} from "./provider-capabilities.js";
import { PROVIDERS, providerDefinition } from "./registry.js";

/** The capability table, one entry per provider (each provider folder owns its entry). */
export const PROVIDER_CAPABILITIES: Readonly<Record<ProviderId, ProviderCapabilities>> = {
  anthropic: PROVIDERS.anthropic.capabilities,
  "openai-chat": PROVIDERS["openai-chat"].capabilities,
  "openai-responses": PROVIDERS["openai-responses"].capabilities,
  gemini: PROVIDERS.gemini.capabilities,
};

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
