/** The Gemini formatter: function declarations, client-side search only. */
import { lastFormatted } from "../last-formatted.js";
import type { CallOutcome, ProviderFormatter } from "../types.js";
import { GEMINI_CAPABILITIES } from "./capabilities.js";
import { formatGeminiResults } from "./format-results.js";
import { createGeminiToolFormatter } from "./format-tools.js";
import { parseGeminiCalls } from "./parse-calls.js";
import type {
  GeminiFormatOptions,
  GeminiFormatted,
  GeminiRequest,
  GeminiResponseLike,
  GeminiResultContent,
  GeminiTool,
  GeminiToolConfig,
} from "./wire-types.js";

export type GeminiFormatter = ProviderFormatter<
  GeminiFormatOptions,
  GeminiTool,
  GeminiToolConfig,
  GeminiRequest,
  GeminiResponseLike,
  GeminiResultContent[]
>;

/**
 * Creates the Gemini formatter. Gemini has no native tool search, so plans must be prepared with
 * `nativeSearch: false`. Renamed properties and stringified enums are mapped back by `parseCalls`.
 * @example
 * const gemini = createGeminiFormatter();
 * const turn = gemini.formatTools(disclosure.prepare({ session }));
 * const response = await ai.models.generateContent({ model, contents, ...turn.request });
 */
export function createGeminiFormatter(defaults: GeminiFormatOptions = {}): GeminiFormatter {
  const formatTools = createGeminiToolFormatter(defaults);
  const last = lastFormatted<GeminiFormatted>("gemini");
  return {
    capabilities: GEMINI_CAPABILITIES,
    formatTools: (plan, options) => last.set(formatTools(plan, options)),
    parseCalls: (response: GeminiResponseLike, given?: GeminiFormatted) =>
      parseGeminiCalls(response, last.get(given)),
    formatResults: (outcomes: readonly CallOutcome[]) => formatGeminiResults(outcomes),
  };
}
