/**
 * The providers by id: what each one's turn looks like (types) and how to make its formatter.
 * The facade looks a provider up here instead of branching on its id; adding a provider is one
 * entry in each map.
 */
import {
  ANTHROPIC_CAPABILITIES,
  type AnthropicFormatOptions,
  type AnthropicFormatter,
  type AnthropicRequest,
  type AnthropicResponseLike,
  type AnthropicResultMessage,
  type AnthropicTool,
  type AnthropicToolChoice,
  anthropicNativeSearch,
  createAnthropicFormatter,
} from "./anthropic/index.js";
import { GEMINI_CAPABILITIES, geminiNativeSearch } from "./gemini/capabilities.js";
import {
  createGeminiFormatter,
  type GeminiFormatOptions,
  type GeminiFormatter,
  type GeminiRequest,
  type GeminiResponseLike,
  type GeminiResultContent,
  type GeminiTool,
  type GeminiToolConfig,
} from "./gemini/index.js";
import {
  chatNativeSearch,
  OPENAI_CHAT_CAPABILITIES,
  OPENAI_RESPONSES_CAPABILITIES,
  responsesNativeSearch,
} from "./openai/capabilities.js";
import {
  createOpenAIChatFormatter,
  createOpenAIResponsesFormatter,
  type OpenAIChatFormatOptions,
  type OpenAIChatFormatter,
  type OpenAIChatRequest,
  type OpenAIChatResponseLike,
  type OpenAIChatTool,
  type OpenAIChatToolChoice,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFormatOptions,
  type OpenAIResponsesFormatter,
  type OpenAIResponsesRequest,
  type OpenAIResponsesResponseLike,
  type OpenAIResponsesResultItem,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolChoice,
} from "./openai/index.js";
import type {
  NativeSearchDecision,
  ProviderCapabilities,
  ProviderId,
} from "./provider-capabilities.js";

/**
 * The provider-shaped types of one turn: format options, the request fragment, a tool, the tool
 * choice, the response `respond` reads, and one message (or input item) of the results.
 */
export interface ProviderTypes {
  anthropic: {
    options: AnthropicFormatOptions;
    request: AnthropicRequest;
    tool: AnthropicTool;
    toolChoice: AnthropicToolChoice;
    response: AnthropicResponseLike;
    result: AnthropicResultMessage;
    formatter: AnthropicFormatter;
  };
  "openai-chat": {
    options: OpenAIChatFormatOptions;
    request: OpenAIChatRequest;
    tool: OpenAIChatTool;
    toolChoice: OpenAIChatToolChoice;
    response: OpenAIChatResponseLike;
    result: OpenAIChatToolMessage;
    formatter: OpenAIChatFormatter;
  };
  "openai-responses": {
    options: OpenAIResponsesFormatOptions;
    request: OpenAIResponsesRequest;
    tool: OpenAIResponsesTool;
    toolChoice: OpenAIResponsesToolChoice;
    response: OpenAIResponsesResponseLike;
    result: OpenAIResponsesResultItem;
    formatter: OpenAIResponsesFormatter;
  };
  gemini: {
    options: GeminiFormatOptions;
    request: GeminiRequest;
    tool: GeminiTool;
    toolChoice: GeminiToolConfig;
    response: GeminiResponseLike;
    result: GeminiResultContent;
    formatter: GeminiFormatter;
  };
}

/** One provider: its documented capabilities, its model table, and its formatter factory. */
export interface ProviderDefinition<P extends ProviderId> {
  id: P;
  capabilities: ProviderCapabilities;
  /** Native tool search or client-side search for a model, from the provider's model table. */
  nativeSearch(model: string): NativeSearchDecision;
  /** A formatter; `model` decides model-dependent defaults (tool references, client tool_search). */
  createFormatter(model: string | undefined): ProviderTypes[P]["formatter"];
}

const withModel = (model: string | undefined) => (model === undefined ? {} : { model });

/** Every provider toolsift formats for, keyed by id. */
export const PROVIDERS: { readonly [P in ProviderId]: ProviderDefinition<P> } = {
  anthropic: {
    id: "anthropic",
    capabilities: ANTHROPIC_CAPABILITIES,
    nativeSearch: anthropicNativeSearch,
    createFormatter: (model) => createAnthropicFormatter(withModel(model)),
  },
  "openai-chat": {
    id: "openai-chat",
    capabilities: OPENAI_CHAT_CAPABILITIES,
    nativeSearch: chatNativeSearch,
    createFormatter: () => createOpenAIChatFormatter(),
  },
  "openai-responses": {
    id: "openai-responses",
    capabilities: OPENAI_RESPONSES_CAPABILITIES,
    nativeSearch: responsesNativeSearch,
    createFormatter: (model) => createOpenAIResponsesFormatter(withModel(model)),
  },
  gemini: {
    id: "gemini",
    capabilities: GEMINI_CAPABILITIES,
    nativeSearch: geminiNativeSearch,
    createFormatter: () => createGeminiFormatter(),
  },
};

/** The provider registered under `id`, or undefined for an unknown id (checked at run time). */
export function providerDefinition(id: unknown): ProviderDefinition<ProviderId> | undefined {
  return typeof id === "string" && Object.hasOwn(PROVIDERS, id)
    ? (PROVIDERS[id as ProviderId] as ProviderDefinition<ProviderId>)
    : undefined;
}
