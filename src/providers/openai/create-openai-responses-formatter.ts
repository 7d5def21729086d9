/** The OpenAI Responses formatter: hosted or client-executed tool search, namespaces, plain functions. */
import { lastFormatted } from "../last-formatted.js";
import type { ProviderFormatter } from "../types.js";
import { OPENAI_RESPONSES_CAPABILITIES } from "./capabilities.js";
import { createResponsesToolFormatter } from "./format-responses-tools.js";
import { formatResponsesResults } from "./format-results.js";
import { parseResponsesCalls } from "./parse-calls.js";
import type {
  OpenAIResponsesFormatOptions,
  OpenAIResponsesFormatted,
  OpenAIResponsesRequest,
  OpenAIResponsesResponseLike,
  OpenAIResponsesResultItem,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
} from "./wire-types.js";

export type OpenAIResponsesFormatter = ProviderFormatter<
  OpenAIResponsesFormatOptions,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
  OpenAIResponsesRequest,
  OpenAIResponsesResponseLike,
  OpenAIResponsesResultItem[]
>;

/**
 * Creates the Responses formatter. Native plans get the hosted `tool_search` with deferred
 * namespaces (one per server, split under 10 functions); client plans get a client-executed
 * `tool_search` (gpt-5.4+) or the meta tools as plain functions.
 * @example
 * const responses = createOpenAIResponsesFormatter({ model: "gpt-5.4" });
 * const turn = responses.formatTools(disclosure.prepare({ session, nativeSearch: true }));
 * const response = await client.responses.create({ model, input, ...turn.request });
 */
export function createOpenAIResponsesFormatter(
  defaults: OpenAIResponsesFormatOptions = {},
): OpenAIResponsesFormatter {
  const formatTools = createResponsesToolFormatter(defaults);
  const last = lastFormatted<OpenAIResponsesFormatted>("openai-responses");
  return {
    capabilities: OPENAI_RESPONSES_CAPABILITIES,
    formatTools: (plan, options) => last.set(formatTools(plan, options)),
    parseCalls: (response, formatted) => parseResponsesCalls(response, last.get(formatted)),
    formatResults: (outcomes, formatted) => formatResponsesResults(outcomes, last.get(formatted)),
  };
}
