/** The OpenAI Chat Completions formatter: client-side search only (meta tools plus loaded tools). */
import { lastFormatted } from "../last-formatted.js";
import type { ProviderFormatter } from "../types.js";
import { OPENAI_CHAT_CAPABILITIES } from "./capabilities.js";
import { createChatToolFormatter } from "./format-chat-tools.js";
import { formatChatResults } from "./format-results.js";
import { parseChatCalls } from "./parse-calls.js";
import type {
  OpenAIChatFormatOptions,
  OpenAIChatFormatted,
  OpenAIChatRequest,
  OpenAIChatResponseLike,
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatToolMessage,
} from "./wire-types.js";

export type OpenAIChatFormatter = ProviderFormatter<
  OpenAIChatFormatOptions,
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatRequest,
  OpenAIChatResponseLike,
  OpenAIChatToolMessage[]
>;

/**
 * Creates the Chat Completions formatter. Chat Completions has no native tool search, so plans
 * must be prepared with `nativeSearch: false`.
 * @example
 * const chat = createOpenAIChatFormatter({ strict: true });
 * const turn = chat.formatTools(disclosure.prepare({ session }));
 * const completion = await client.chat.completions.create({ model, messages, ...turn.request });
 */
export function createOpenAIChatFormatter(
  defaults: OpenAIChatFormatOptions = {},
): OpenAIChatFormatter {
  const formatTools = createChatToolFormatter(defaults);
  const last = lastFormatted<OpenAIChatFormatted>("openai-chat");
  return {
    capabilities: OPENAI_CHAT_CAPABILITIES,
    formatTools: (plan, options) => last.set(formatTools(plan, options)),
    parseCalls: (response, formatted) => parseChatCalls(response, last.get(formatted)),
    formatResults: (outcomes) => formatChatResults(outcomes),
  };
}
