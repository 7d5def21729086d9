/** OpenAI Chat Completions: client-side search only (meta tools plus loaded tools). */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import {
  catalogName,
  createNameMapCache,
  fitDescription,
  lastFormatted,
  objectEntries,
  outcomeText,
  parseArguments,
  placeListing,
  planParts,
  providerNameMap,
  requestWarning,
  requireClientPlan,
  responseList,
  toolLimitWarnings,
} from "../plan-parts.js";
import type {
  BaseFormatOptions,
  CallDecoder,
  FormattedTools,
  ProviderFormatter,
  UnifiedCall,
} from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { OPENAI_CHAT_CAPABILITIES } from "./capabilities.js";
import { createParameterConverter } from "./function-parameters.js";

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: { [key: string]: unknown };
    strict?: boolean;
  };
}

export type OpenAIChatToolChoice =
  | "auto"
  | "required"
  | "none"
  | { type: "function"; function: { name: string } }
  | {
      type: "allowed_tools";
      allowed_tools: {
        mode: "auto" | "required";
        tools: { type: "function"; function: { name: string } }[];
      };
    };

/** Request fields to spread into `client.chat.completions.create`. */
export interface OpenAIChatRequest {
  tools: OpenAIChatTool[];
  tool_choice?: OpenAIChatToolChoice;
}

/** Options of the Chat Completions formatter. */
export interface OpenAIChatFormatOptions extends BaseFormatOptions {
  /** Send `strict: true` where the schema can be strict without changing its meaning. */
  strict?: boolean;
  /**
   * Send every deferrable tool on every turn and restrict calls with an `allowed_tools` tool
   * choice, so the tools array (and the prompt cache) stays stable while tools are revealed.
   * Falls back to the plain list, with a warning, when that would pass the 128-tool limit.
   */
  stableTools?: boolean;
}

/** The part of a Chat Completions response the parser reads. */
export interface OpenAIChatResponseLike {
  choices: ReadonlyArray<{
    message: {
      tool_calls?: ReadonlyArray<{
        id: string;
        type: string;
        function?: { name: string; arguments: string };
      }> | null;
    };
  }>;
}

type Choice = OpenAIChatResponseLike["choices"][number];
type ChatToolCall = NonNullable<Choice["message"]["tool_calls"]>[number];

/** One `role: "tool"` message per executed call. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type OpenAIChatFormatted = FormattedTools<
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatRequest
>;

export type OpenAIChatFormatter = ProviderFormatter<
  OpenAIChatFormatOptions,
  OpenAIChatTool,
  OpenAIChatToolChoice,
  OpenAIChatRequest,
  OpenAIChatResponseLike,
  OpenAIChatToolMessage[]
>;

const named = (name: string) => ({ type: "function" as const, function: { name } });

/**
 * Creates the Chat Completions formatter. Chat Completions has no native tool search, so plans
 * must be prepared with `nativeSearch: false`.
 * @example
 * const chat = createOpenAIChatFormatter({ strict: true });
 * const turn = chat.formatTools(disclosure.prepare({ session }));
 * const completion = await client.chat.completions.create({ model, messages, ...turn.request });
 */
export function createOpenAIChatFormatter(
  defaults: OpenAIChatFormatOptions = {},
): OpenAIChatFormatter {
  const capabilities = OPENAI_CHAT_CAPABILITIES;
  const nameMaps = createNameMapCache(capabilities);
  const parameters = createParameterConverter();
  const last = lastFormatted<OpenAIChatFormatted>("openai-chat");

  const formatTools = (planned: TurnPlan, given: OpenAIChatFormatOptions = {}) => {
    const plan = placeListing(planned, capabilities);
    requireClientPlan(plan, capabilities);
    const options = { ...defaults, ...given };
    const parts = planParts(plan);
    const names = nameMaps(parts, options.names);
    const providerNames = providerNameMap(parts, names);
    const warnings: ConversionWarning[] = [];
    const decoders = new Map<string, CallDecoder>();
    const callable: ToolDefinition[] = [...parts.meta, ...parts.core, ...parts.revealed];
    let sent = callable;
    let stable = options.stableTools === true && plan.active;
    if (stable) {
      const all = [...parts.meta, ...parts.core, ...parts.deferrable];
      if (capabilities.maxTools !== undefined && all.length > capabilities.maxTools) {
        warnings.push(
          requestWarning(
            "option_ignored",
            `stableTools needs all ${all.length} tools in the request, more than the limit of ${capabilities.maxTools}; sent only the callable ones`,
          ),
        );
        stable = false;
      } else sent = all;
    }
    const tools = sent.map((tool): OpenAIChatTool => {
      const converted = parameters(tool, options.strict === true, warnings);
      const providerName = providerNames.get(tool.name) ?? tool.name;
      const decoder: CallDecoder = { name: tool.name };
      if (converted.restore) decoder.restore = converted.restore;
      decoders.set(providerName, decoder);
      const fn: OpenAIChatTool["function"] = {
        name: providerName,
        description: fitDescription(tool, capabilities, warnings),
        parameters: converted.parameters,
      };
      if (converted.strict) fn.strict = true;
      return { type: "function", function: fn };
    });
    warnings.push(...toolLimitWarnings(tools.length, capabilities));
    let toolChoice: OpenAIChatToolChoice | undefined;
    const wanted = options.toolChoice;
    if (typeof wanted === "object")
      toolChoice = named(providerNames.get(wanted.name) ?? wanted.name);
    else if (wanted === "none") toolChoice = "none";
    else if (stable) {
      toolChoice = {
        type: "allowed_tools",
        allowed_tools: {
          mode: wanted === "required" ? "required" : "auto",
          tools: callable.map((tool) => named(providerNames.get(tool.name) ?? tool.name)),
        },
      };
    } else if (wanted !== undefined) toolChoice = wanted;
    const request: OpenAIChatRequest = { tools };
    if (toolChoice !== undefined) request.tool_choice = toolChoice;
    const formatted: OpenAIChatFormatted = {
      tools,
      system: plan.system,
      mode: "client",
      names,
      warnings,
      request,
      decoders,
      providerNames,
    };
    if (toolChoice !== undefined) formatted.toolChoice = toolChoice;
    return last.set(formatted);
  };

  const parseCalls = (
    response: OpenAIChatResponseLike,
    given?: OpenAIChatFormatted,
  ): UnifiedCall[] => {
    const formatted = last.get(given);
    const calls: UnifiedCall[] = [];
    const choice = responseList<Partial<Choice>>(response, "choices", "openai-chat")[0];
    for (const toolCall of objectEntries<ChatToolCall>(choice?.message?.tool_calls)) {
      if (toolCall.type !== "function" || !toolCall.function) continue;
      const providerName = toolCall.function.name;
      const decoder = formatted.decoders.get(providerName);
      const args = parseArguments(toolCall.function.arguments);
      calls.push({
        id: toolCall.id,
        name: decoder?.name ?? catalogName(formatted.names, providerName),
        arguments: decoder?.restore && typeof args === "object" ? decoder.restore(args) : args,
        providerName,
        kind: "function",
      });
    }
    return calls;
  };

  const formatResults = (outcomes: Parameters<OpenAIChatFormatter["formatResults"]>[0]) =>
    outcomes
      .filter(({ call }) => call.kind !== "server_search")
      .map(
        ({ call, outcome }): OpenAIChatToolMessage => ({
          role: "tool",
          tool_call_id: call.id,
          content: outcomeText(outcome, "openai-chat"),
        }),
      );

  return { capabilities, formatTools, parseCalls, formatResults };
}
