/** Anthropic Messages wire types: structural copies of the SDK's parameter types (the SDK stays a dev dependency). */
import type { BaseFormatOptions, FormattedTools } from "../types.js";

/** An ephemeral prompt-cache breakpoint. */
export interface AnthropicCacheControl {
  type: "ephemeral";
}

/** A custom tool as the Messages API takes it. */
export interface AnthropicCustomTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
  defer_loading?: boolean;
  cache_control?: AnthropicCacheControl;
}

/** Anthropic's server-side tool search tool (BM25 or regex variant). */
export type AnthropicSearchTool =
  | {
      type: "tool_search_tool_bm25_20251119";
      name: "tool_search_tool_bm25";
      cache_control?: AnthropicCacheControl;
    }
  | {
      type: "tool_search_tool_regex_20251119";
      name: "tool_search_tool_regex";
      cache_control?: AnthropicCacheControl;
    };

export type AnthropicTool = AnthropicCustomTool | AnthropicSearchTool;

export type AnthropicToolChoice =
  | { type: "auto" }
  | { type: "any" }
  | { type: "none" }
  | { type: "tool"; name: string };

/** Request fields to spread into `client.messages.create`. */
export interface AnthropicRequest {
  tools: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  /** Only when you passed `system`: your prompt followed by the plan's note. */
  system?: string;
}

/** Options of the Anthropic formatter. */
export interface AnthropicFormatOptions extends BaseFormatOptions {
  /** Model id; decides the default of `toolReferences`. */
  model?: string;
  /** Server search variant in native mode; default `bm25`. */
  searchTool?: "bm25" | "regex";
  /**
   * Client-side mode only: send every deferrable tool with `defer_loading: true` and answer the
   * search meta tool with `tool_reference` blocks, so the tools array never changes. Needs a model
   * with deferred loading; default true when `model` is in Anthropic's tool-search table.
   */
  toolReferences?: boolean;
  /** Mark non-deferred tools `strict: true` where possible, within the per-request limits. */
  strict?: boolean;
  /** Put a cache breakpoint on the last non-deferred tool; default true. */
  cacheControl?: boolean;
}

export type AnthropicFormatted = FormattedTools<
  AnthropicTool,
  AnthropicToolChoice,
  AnthropicRequest
>;

/** The part of a Messages response the parser reads (an SDK `Message` fits). */
export interface AnthropicResponseLike {
  content: ReadonlyArray<{ type: string }>;
}

/** A block of a `tool_result`'s content. */
export type AnthropicResultBlock =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageType; data: string } }
  | { type: "tool_reference"; tool_name: string };

/** Image types the Messages API takes in a `tool_result`. */
export type AnthropicImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** One `tool_result` block. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content?: AnthropicResultBlock[];
  is_error?: boolean;
}

/** The user message that carries tool results. */
export interface AnthropicResultMessage {
  role: "user";
  content: AnthropicToolResult[];
}
