// Owns: the OpenAI formatters: Chat Completions (client-side search) and Responses (hosted or client tool_search, namespaces).
// Must not import: mcp, cli, search; never the openai SDK (its types are only used in tests).

export type * from "../types.js";
export {
  createOpenAIChatFormatter,
  type OpenAIChatFormatOptions,
  type OpenAIChatFormatted,
  type OpenAIChatFormatter,
  type OpenAIChatRequest,
  type OpenAIChatResponseLike,
  type OpenAIChatTool,
  type OpenAIChatToolChoice,
  type OpenAIChatToolMessage,
} from "./create-openai-chat-formatter.js";
export {
  createOpenAIResponsesFormatter,
  type OpenAIResponsesFormatter,
  type OpenAIResponsesResponseLike,
  type OpenAIResponsesResultItem,
} from "./create-openai-responses-formatter.js";
export type {
  OpenAIResponsesFormatOptions,
  OpenAIResponsesFormatted,
  OpenAIResponsesFunction,
  OpenAIResponsesNamespace,
  OpenAIResponsesRequest,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
  OpenAIToolSearchTool,
} from "./format-responses-tools.js";
export { groupNamespaces, type NamespaceGroup } from "./group-namespaces.js";
export {
  restoreOpenAIStrictArguments,
  toOpenAIParameters,
  toOpenAIStrictSchema,
} from "./schema.js";
