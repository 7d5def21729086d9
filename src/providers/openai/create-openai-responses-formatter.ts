/** The OpenAI Responses formatter: hosted or client-executed tool search, namespaces, plain functions. */

import type { ExecuteOutcome } from "../../disclosure/index.js";
import {
  catalogName,
  foundNames,
  lastFormatted,
  outcomeText,
  parseArguments,
  responseList,
} from "../plan-parts.js";
import type { CallOutcome, ProviderFormatter, UnifiedCall } from "../types.js";
import { OPENAI_RESPONSES_CAPABILITIES } from "./capabilities.js";
import {
  createResponsesToolFormatter,
  type OpenAIResponsesFormatOptions,
  type OpenAIResponsesFormatted,
  type OpenAIResponsesFunction,
  type OpenAIResponsesRequest,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolChoice,
  responsesState,
} from "./format-responses-tools.js";

/** The part of a Responses response the parser reads (an SDK `Response` fits). */
export interface OpenAIResponsesResponseLike {
  output: ReadonlyArray<{ type: string }>;
}

/** A part of a function call's output: text, or an image as a data URL. */
export type OpenAIResponsesOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail?: "low" | "high" | "auto" };

/** Input items that answer the calls of one response. */
export type OpenAIResponsesResultItem =
  | { type: "function_call_output"; call_id: string; output: string | OpenAIResponsesOutputPart[] }
  | {
      type: "tool_search_output";
      execution: "client";
      call_id: string;
      status: "completed";
      tools: OpenAIResponsesFunction[];
    };

export type OpenAIResponsesFormatter = ProviderFormatter<
  OpenAIResponsesFormatOptions,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
  OpenAIResponsesRequest,
  OpenAIResponsesResponseLike,
  OpenAIResponsesResultItem[]
>;

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

function parseResponsesCalls(
  response: OpenAIResponsesResponseLike,
  formatted: OpenAIResponsesFormatted,
): UnifiedCall[] {
  const state = responsesState.get(formatted);
  const calls: UnifiedCall[] = [];
  let openSearch: UnifiedCall | undefined;
  for (const item of responseList<OutputItem>(response, "output", "openai-responses")) {
    if (item.type === "function_call" && typeof item.call_id === "string") {
      const providerName = String(item.name ?? "");
      const decoder = formatted.decoders.get(providerName);
      const args = parseArguments(item.arguments);
      const call: UnifiedCall = {
        id: item.call_id,
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

// image types the Responses API reads (platform.openai.com images and vision)
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/**
 * A function call's output: the text, or (when the result has images) text and `input_image`
 * parts, so an image costs what the budget counted for it instead of its base64 as text.
 */
function outputOf(outcome: ExecuteOutcome): string | OpenAIResponsesOutputPart[] {
  const images = outcome.content.filter(
    (block) => block.type === "image" && IMAGE_TYPES.has(block.mimeType),
  );
  if (images.length === 0) return outcomeText(outcome, "openai-responses");
  const parts: OpenAIResponsesOutputPart[] = [];
  for (const block of outcome.content) {
    if (block.type === "image" && IMAGE_TYPES.has(block.mimeType))
      parts.push({ type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}` });
    else {
      const text = outcomeText({ ...outcome, content: [block] }, "openai-responses");
      if (text !== "") parts.push({ type: "input_text", text });
    }
  }
  return parts;
}

function formatResponsesResults(
  outcomes: readonly CallOutcome[],
  formatted: OpenAIResponsesFormatted,
): OpenAIResponsesResultItem[] {
  const state = responsesState.get(formatted);
  const items: OpenAIResponsesResultItem[] = [];
  for (const { call, outcome } of outcomes) {
    if (call.kind === "server_search") continue;
    if (call.kind === "client_search") {
      const tools = outcome.isError
        ? []
        : foundNames(outcome)
            .map((name) => state?.definition(name))
            .filter((tool): tool is OpenAIResponsesFunction => tool !== undefined);
      items.push({
        type: "tool_search_output",
        execution: "client",
        call_id: call.id,
        status: "completed",
        tools,
      });
    } else {
      items.push({ type: "function_call_output", call_id: call.id, output: outputOf(outcome) });
    }
  }
  return items;
}

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
