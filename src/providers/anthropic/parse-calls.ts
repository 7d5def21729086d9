/** Anthropic Messages: the tool calls (and native searches) of a response. */
import { catalogName } from "../name-map-cache.js";
import { responseList } from "../response-list.js";
import type { UnifiedCall } from "../types.js";
import type { AnthropicFormatted, AnthropicResponseLike } from "./wire-types.js";

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
