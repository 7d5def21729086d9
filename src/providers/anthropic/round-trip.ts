/** Anthropic Messages: tool calls out of a response, tool results back in. */
import type { ToolContent } from "../../catalog/index.js";
import { catalogName, foundNames, responseList } from "../plan-parts.js";
import type { CallOutcome, UnifiedCall } from "../types.js";
import { type AnthropicFormatted, anthropicState } from "./format-tools.js";

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

const IMAGE_TYPES = new Set<string>(["image/jpeg", "image/png", "image/gif", "image/webp"]);

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

interface Block {
  type: string;
  id?: unknown;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: {
    type?: string;
    tool_references?: { tool_name?: string }[];
    error_code?: string;
  };
}

function useId(id: unknown, index: number): string {
  if (typeof id === "string") return id;
  if (typeof id === "number" || typeof id === "bigint") return String(id);
  return `toolsift-anthropic-${index}`;
}

/**
 * Reads `tool_use` blocks as function calls and each `server_tool_use` of the tool-search tool,
 * paired with its `tool_search_tool_result`, as a server search with the referenced tools.
 */
export function parseAnthropicCalls(
  response: AnthropicResponseLike,
  formatted: AnthropicFormatted,
): UnifiedCall[] {
  const blocks = responseList<Block>(response, "content", "anthropic");
  const calls: UnifiedCall[] = [];
  const searches = new Map<string, UnifiedCall>();
  for (const block of blocks) {
    if (block.type === "tool_use") {
      // a call is answered even when its id is malformed: skipping it would leave a tool_use
      // without a tool_result, which the API rejects on the next request
      const providerName = typeof block.name === "string" ? block.name : "";
      const decoder = formatted.decoders.get(providerName);
      calls.push({
        id: useId(block.id, calls.length),
        name: decoder?.name ?? catalogName(formatted.names, providerName),
        arguments: block.input ?? {},
        providerName,
        kind: "function",
      });
    } else if (
      block.type === "server_tool_use" &&
      typeof block.id === "string" &&
      typeof block.name === "string" &&
      block.name.startsWith("tool_search_tool_")
    ) {
      const call: UnifiedCall = {
        id: block.id,
        name: block.name,
        arguments: block.input ?? {},
        providerName: block.name,
        kind: "server_search",
        native: { input: block.input, referenced: [] },
      };
      searches.set(block.id, call);
      calls.push(call);
    } else if (block.type === "tool_search_tool_result" && block.tool_use_id) {
      const native = searches.get(block.tool_use_id)?.native;
      if (!native) continue;
      if (typeof block.content?.error_code === "string") native.error = block.content.error_code;
      for (const reference of block.content?.tool_references ?? []) {
        if (typeof reference.tool_name === "string")
          native.referenced.push(catalogName(formatted.names, reference.tool_name));
      }
    }
  }
  return calls;
}

function contentBlocks(content: readonly ToolContent[]): AnthropicResultBlock[] {
  const blocks: AnthropicResultBlock[] = [];
  for (const block of content) {
    if (block.type === "text") {
      if (block.text !== "") blocks.push({ type: "text", text: block.text });
    } else if (block.type === "image" && IMAGE_TYPES.has(block.mimeType)) {
      blocks.push({
        type: "image",
        source: {
          type: "base64",
          media_type: block.mimeType as AnthropicImageType,
          data: block.data,
        },
      });
    } else if (block.type === "image" || block.type === "audio") {
      // other media cannot go into a tool_result; say what was there instead of dropping it
      blocks.push({ type: "text", text: `[${block.type} of type ${block.mimeType} omitted]` });
    } else {
      blocks.push({ type: "text", text: JSON.stringify(block) });
    }
  }
  return blocks;
}

/**
 * Formats outcomes as one user message of `tool_result` blocks, or no message when no call needs
 * an answer (an empty user message is rejected). Server searches get no result
 * (the API rejects one). In tool-reference mode, a search meta tool's result is the found tools as
 * `tool_reference` blocks, which the API expands into their definitions.
 */
export function formatAnthropicResults(
  outcomes: readonly CallOutcome[],
  formatted: AnthropicFormatted,
): AnthropicResultMessage[] {
  const state = anthropicState.get(formatted);
  const content: AnthropicToolResult[] = [];
  for (const { call, outcome } of outcomes) {
    if (call.kind === "server_search") continue;
    const result: AnthropicToolResult = { type: "tool_result", tool_use_id: call.id };
    let blocks = contentBlocks(outcome.content);
    if (state?.references && call.name === state.searchName && !outcome.isError) {
      const references = foundNames(outcome)
        .map((name) => formatted.providerNames.get(name))
        .filter((name): name is string => name !== undefined)
        .map((name): AnthropicResultBlock => ({ type: "tool_reference", tool_name: name }));
      // with no match, the text (suggestions, "try other keywords") is the useful answer
      if (references.length > 0) blocks = references;
    }
    if (blocks.length > 0) result.content = blocks;
    if (outcome.isError) result.is_error = true;
    content.push(result);
  }
  return content.length > 0 ? [{ role: "user", content }] : [];
}
