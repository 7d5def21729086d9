// Owns: the Anthropic Messages formatter (tools, native tool search, tool_reference results, parsing).
// Must not import: mcp, cli, search; never the Anthropic SDK (its types are only used in tests).

export type * from "../types.js";
export { ANTHROPIC_CAPABILITIES, anthropicNativeSearch, parseClaudeModel } from "./capabilities.js";
export {
  type AnthropicFormatter,
  createAnthropicFormatter,
} from "./create-anthropic-formatter.js";
export {
  selectAnthropicStrictTools,
  toAnthropicInputSchema,
  toAnthropicStrictSchema,
} from "./schema.js";
export type {
  AnthropicCacheControl,
  AnthropicCustomTool,
  AnthropicFormatOptions,
  AnthropicFormatted,
  AnthropicImageType,
  AnthropicRequest,
  AnthropicResponseLike,
  AnthropicResultBlock,
  AnthropicResultMessage,
  AnthropicSearchTool,
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicToolResult,
} from "./wire-types.js";
