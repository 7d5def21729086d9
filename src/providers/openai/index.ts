// Owns: the OpenAI formatters: Chat Completions (client-side search) and Responses (hosted or client tool_search, namespaces).
// Must not import: mcp, cli, search; never the openai SDK (its types are only used in tests).

export type * from "../types.js";
export {
  OPENAI_CHAT_CAPABILITIES,
  OPENAI_RESPONSES_CAPABILITIES,
  parseGPTModel,
  supportsToolSearch,
} from "./capabilities.js";
export {
  createOpenAIChatFormatter,
  type OpenAIChatFormatter,
} from "./create-openai-chat-formatter.js";
export {
  createOpenAIResponsesFormatter,
  type OpenAIResponsesFormatter,
} from "./create-openai-responses-formatter.js";
export { groupNamespaces, type NamespaceGroup } from "./group-namespaces.js";
export {
  restoreOpenAIStrictArguments,
  toOpenAIParameters,
  toOpenAIStrictSchema,
} from "./schema.js";
export type {
  OpenAIChatFormatOptions,
  OpenAIChatFormatted,
  OpenAIChatRequest,
  OpenAIChatResponseLike,
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatToolMessage,
  OpenAIResponsesFormatOptions,
  OpenAIResponsesFormatted,
  OpenAIResponsesFunction,
  OpenAIResponsesNamespace,
  OpenAIResponsesOutputPart,
  OpenAIResponsesRequest,
  OpenAIResponsesResponseLike,
  OpenAIResponsesResultItem,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
  OpenAIToolSearchTool,
} from "./wire-types.js";
