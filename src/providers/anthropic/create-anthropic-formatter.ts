/** The Anthropic Messages formatter: native tool search or client-side search, one object. */
import { lastFormatted } from "../last-formatted.js";
import type { ProviderFormatter } from "../types.js";
import { ANTHROPIC_CAPABILITIES } from "./capabilities.js";
import { formatAnthropicResults } from "./format-results.js";
import { createAnthropicToolFormatter } from "./format-tools.js";
import { parseAnthropicCalls } from "./parse-calls.js";
import type {
  AnthropicFormatOptions,
  AnthropicFormatted,
  AnthropicRequest,
  AnthropicResponseLike,
  AnthropicResultMessage,
  AnthropicTool,
  AnthropicToolChoice,
} from "./wire-types.js";

/** The Anthropic formatter type. */
export type AnthropicFormatter = ProviderFormatter<
  AnthropicFormatOptions,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicRequest,
  AnthropicResponseLike,
  AnthropicResultMessage[]
>;

/**
 * Creates the Anthropic Messages formatter. A plan prepared with `nativeSearch: true` is sent with
 * the server tool search and `defer_loading` on deferred tools; otherwise toolsift's meta tools
 * are sent (with `tool_reference` results when the model supports deferred loading).
 * @example
 * const anthropic = createAnthropicFormatter({ model: "claude-sonnet-4-6" });
 * const turn = anthropic.formatTools(disclosure.prepare({ session, nativeSearch: true }));
 * const message = await client.messages.create({ model, max_tokens, messages, ...turn.request });
 * for (const call of anthropic.parseCalls(message)) { ... }
 */
export function createAnthropicFormatter(
  defaults: AnthropicFormatOptions = {},
): AnthropicFormatter {
  const formatTools = createAnthropicToolFormatter(defaults);
  const last = lastFormatted<AnthropicFormatted>("anthropic");
  return {
    capabilities: ANTHROPIC_CAPABILITIES,
    formatTools: (plan, options) => last.set(formatTools(plan, options)),
    parseCalls: (response, formatted) => parseAnthropicCalls(response, last.get(formatted)),
    formatResults: (outcomes, formatted) => formatAnthropicResults(outcomes, last.get(formatted)),
  };
}
