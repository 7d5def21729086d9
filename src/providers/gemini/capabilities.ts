/** Gemini: documented limits of function calling; there is no native tool search. */
import type { NativeSearchDecision, ProviderCapabilities } from "../provider-capabilities.js";

/** Limits and features of Gemini function declarations (reference/providers.md, 2026-11-21). */
export const GEMINI_CAPABILITIES: ProviderCapabilities = {
  id: "gemini",
  // 128 per @google/genai 3.1.0; older docs said 63/64
  maxToolNameLength: 128,
  namePattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/,
  // function names must start with a letter or an underscore
  leadingLetterNames: true,
  // from the SDK type docs; enforcement on the Gemini API (not Vertex) is [unconfirmed]
  maxTools: 512,
  supportsDeferredLoading: false,
  supportsAllowedTools: true,
  schemaDialect: "openapi-3.0-subset",
};

/** Gemini has no native tool search. */
export function geminiNativeSearch(): NativeSearchDecision {
  return { native: false, reason: "gemini has no native tool search" };
}
