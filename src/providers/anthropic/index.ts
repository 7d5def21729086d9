// Owns: the Anthropic Messages formatter (tools, native tool search, tool_reference results, parsing).
// Must not import: mcp, cli, search; never the Anthropic SDK (its types are only used in tests).

export type * from "../types.js";
export {
  type AnthropicFormatter,
  createAnthropicFormatter,
} from "./create-anthropic-formatter.js";
export type {
  AnthropicCacheControl,
  AnthropicCustomTool,
  AnthropicFormatOptions,
  AnthropicFormatted,
  AnthropicRequest,
  AnthropicSearchTool,
  AnthropicTool,
  AnthropicToolChoice,
} from "./format-tools.js";
export type {
  AnthropicResponseLike,
  AnthropicResultBlock,
  AnthropicResultMessage,
  AnthropicToolResult,
} from "./round-trip.js";
export {
  selectAnthropicStrictTools,
  toAnthropicInputSchema,
  toAnthropicStrictSchema,
} from "./schema.js";
