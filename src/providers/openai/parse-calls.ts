/** OpenAI: the tool calls of a Chat Completions or Responses response, names and arguments mapped back. */
import { catalogName } from "../name-map-cache.js";
import { objectEntries, parseArguments, responseList } from "../response-list.js";
import type { UnifiedCall } from "../types.js";
import { responsesState } from "./format-responses-tools.js";
import type {
  OpenAIChatFormatted,
  OpenAIChatResponseLike,
  OpenAIResponsesFormatted,
  OpenAIResponsesResponseLike,
} from "./wire-types.js";

type Choice = OpenAIChatResponseLike["choices"][number];
interface ChatToolCall {
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** Reads the function tool calls of the first choice. */
export function parseChatCalls(
  response: OpenAIChatResponseLike,
  formatted: OpenAIChatFormatted,
): UnifiedCall[] {
  const calls: UnifiedCall[] = [];
  const choice = responseList<Partial<Choice>>(response, "choices", "openai-chat")[0];
  for (const toolCall of objectEntries<ChatToolCall>(choice?.message?.tool_calls)) {
    if (toolCall.type !== "function" || typeof toolCall.function !== "object") continue;
    if (toolCall.function === null) continue;
    const providerName = typeof toolCall.function.name === "string" ? toolCall.function.name : "";
    const decoder = formatted.decoders.get(providerName);
    const args = parseArguments(toolCall.function.arguments);
    calls.push({
      // a malformed id is answered all the same, so no call is left without a tool message
      id:
        typeof toolCall.id === "string"
          ? toolCall.id
          : String(toolCall.id ?? `call_${calls.length}`),
      name: decoder?.name ?? catalogName(formatted.names, providerName),
      arguments: decoder?.restore && typeof args === "object" ? decoder.restore(args) : args,
      providerName,
      kind: "function",
    });
  }
  return calls;
}

interface OutputItem {
  type: string;
  id?: string;
  call_id?: string | null;
  name?: string;
  namespace?: string;
  arguments?: unknown;
  execution?: string;
  tools?: { type?: string; name?: string; tools?: { name?: string }[] }[];
}

function loadedNames(item: OutputItem): string[] {
  const names: string[] = [];
  for (const tool of item.tools ?? []) {
    if (tool.type === "namespace") {
      for (const member of tool.tools ?? []) if (member.name) names.push(member.name);
    } else if (tool.name) names.push(tool.name);
  }
  return names;
}

/** Reads function calls, client tool searches and hosted tool searches of a response. */
export function parseResponsesCalls(
  response: OpenAIResponsesResponseLike,
  formatted: OpenAIResponsesFormatted,
): UnifiedCall[] {
  const state = responsesState.get(formatted);
  const calls: UnifiedCall[] = [];
  let openSearch: UnifiedCall | undefined;
  for (const item of responseList<OutputItem>(response, "output", "openai-responses")) {
    // a numeric call_id is answered with its text; without any id no output could match the call
    const callId = item.call_id as unknown;
    if (
      item.type === "function_call" &&
      (typeof callId === "string" || typeof callId === "number")
    ) {
      const providerName = String(item.name ?? "");
      const decoder = formatted.decoders.get(providerName);
      const args = parseArguments(item.arguments);
      const call: UnifiedCall = {
        id: String(callId),
        name: decoder?.name ?? catalogName(formatted.names, providerName),
        arguments: decoder?.restore && typeof args === "object" ? decoder.restore(args) : args,
        providerName,
        kind: "function",
      };
      if (item.namespace) call.namespace = item.namespace;
      calls.push(call);
    } else if (item.type === "tool_search_call" && item.execution === "client") {
      const name = state?.searchName ?? "tool_search";
      calls.push({
        id: String(item.call_id ?? item.id ?? ""),
        name,
        arguments: parseArguments(item.arguments),
        providerName: "tool_search",
        kind: "client_search",
      });
    } else if (item.type === "tool_search_call") {
      openSearch = {
        id: String(item.id ?? `tool_search_${calls.length}`),
        name: "tool_search",
        arguments: item.arguments ?? {},
        providerName: "tool_search",
        kind: "server_search",
        native: { input: item.arguments, referenced: [] },
      };
      calls.push(openSearch);
    } else if (item.type === "tool_search_output" && item.execution !== "client" && openSearch) {
      // hosted outputs have no call_id: each answers the search just before it
      for (const name of loadedNames(item))
        openSearch.native?.referenced.push(catalogName(formatted.names, name));
      openSearch = undefined;
    }
  }
  return calls;
}
