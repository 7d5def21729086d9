/** OpenAI Chat Completions: function tools (meta tools plus loaded tools) and the tool choice. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import { assembleFormatted, requestFields } from "../assemble-formatted.js";
import { createPlanAsSent } from "../plan-as-sent.js";
import { requireClientPlan } from "../plan-parts.js";
import { fitDescription, requestWarning, toolLimitWarnings } from "../request-warnings.js";
import type { CallDecoder } from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { OPENAI_CHAT_CAPABILITIES } from "./capabilities.js";
import { createParameterConverter } from "./function-parameters.js";
import type {
  OpenAIChatFormatOptions,
  OpenAIChatFormatted,
  OpenAIChatRequest,
  OpenAIChatTool,
  OpenAIChatToolChoice,
} from "./wire-types.js";

const named = (name: string) => ({ type: "function" as const, function: { name } });

/** Builds the Chat Completions `formatTools`; conversions are memoised per tool object. */
export function createChatToolFormatter(defaults: OpenAIChatFormatOptions = {}) {
  const capabilities = OPENAI_CHAT_CAPABILITIES;
  const asSent = createPlanAsSent(capabilities);
  const parameters = createParameterConverter();

  return (planned: TurnPlan, given: OpenAIChatFormatOptions = {}): OpenAIChatFormatted => {
    requireClientPlan(planned, capabilities);
    const options = { ...defaults, ...given };
    const { plan, parts, names, providerNames } = asSent(planned, options.names);
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
    return assembleFormatted<OpenAIChatTool, OpenAIChatToolChoice, OpenAIChatRequest>({
      plan,
      mode: "client",
      tools,
      toolChoice,
      request: requestFields<OpenAIChatRequest>({ tools, tool_choice: toolChoice }),
      names,
      warnings,
      decoders,
      providerNames,
    });
  };
}
