/** OpenAI Responses: tools for hosted tool search, client-executed tool search, or plain functions. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import { assembleFormatted, requestFields } from "../assemble-formatted.js";
import { createPlanAsSent } from "../plan-as-sent.js";
import { joinedSystem, type planParts } from "../plan-parts.js";
import { fitDescription, requestWarning } from "../request-warnings.js";
import type { CallDecoder } from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { OPENAI_RESPONSES_CAPABILITIES, supportsToolSearch } from "./capabilities.js";
import { createParameterConverter } from "./function-parameters.js";
import { groupNamespaces } from "./group-namespaces.js";
import type {
  OpenAIResponsesFormatOptions,
  OpenAIResponsesFormatted,
  OpenAIResponsesFunction,
  OpenAIResponsesRequest,
  OpenAIResponsesTool,
  OpenAIResponsesToolChoice,
} from "./wire-types.js";

/** What parsing and result formatting need beyond the shared fields. */
export interface ResponsesTurnState {
  searchName: string | undefined;
  clientSearch: boolean;
  definition: (name: string) => OpenAIResponsesFunction | undefined;
}

export const responsesState = new WeakMap<OpenAIResponsesFormatted, ResponsesTurnState>();

/** Whether the search meta tool is sent as a client-executed `tool_search` (reveal strategy, and
 * the option or the model's support says so) rather than as a function. */
function usesClientToolSearch(plan: TurnPlan, options: OpenAIResponsesFormatOptions): boolean {
  return (
    plan.active &&
    plan.strategy === "reveal" &&
    (options.clientSearch ?? (supportsToolSearch(options.model) ? "tool_search" : "function")) ===
      "tool_search"
  );
}

/** The request's `tools`: the search tool (native or client-executed), the meta and core tools,
 * the revealed ones, and under native search the deferred ones (loose or in namespaces). */
function responsesTools(
  parts: ReturnType<typeof planParts>,
  fn: (tool: ToolDefinition, deferred: boolean) => OpenAIResponsesFunction,
  mode: {
    native: boolean;
    clientSearch: boolean;
    providerNames: ReadonlyMap<string, string>;
    namespaceSize: number;
  },
): OpenAIResponsesTool[] {
  const { native, clientSearch, providerNames } = mode;
  const tools: OpenAIResponsesTool[] = [];
  const search = parts.meta[0];
  if (native) tools.push({ type: "tool_search" });
  if (clientSearch && search) {
    const converted = fn(search, false);
    tools.push({
      type: "tool_search",
      execution: "client",
      description: converted.description,
      parameters: converted.parameters,
    });
  }
  const direct = clientSearch
    ? [...parts.meta.slice(1), ...parts.core]
    : [...parts.meta, ...parts.core];
  for (const tool of direct) tools.push(fn(tool, false));
  // reveals arrive through tool_search_output in client-search mode, so the array stays fixed
  if (!native && !clientSearch) for (const tool of parts.revealed) tools.push(fn(tool, false));
  if (native) {
    const taken = new Set(providerNames.values());
    const grouped = groupNamespaces(
      parts.deferrable,
      (tool) => providerNames.get(tool.name) ?? tool.name,
      taken,
      mode.namespaceSize,
    );
    for (const tool of grouped.loose) tools.push(fn(tool, true));
    for (const group of grouped.groups) {
      tools.push({
        type: "namespace",
        name: group.name,
        description: group.description,
        tools: group.tools.map((tool) => fn(tool, true)),
      });
    }
  }
  return tools;
}

/** Builds the Responses `formatTools`; conversions are memoised per tool object. */
export function createResponsesToolFormatter(defaults: OpenAIResponsesFormatOptions = {}) {
  const capabilities = OPENAI_RESPONSES_CAPABILITIES;
  const asSent = createPlanAsSent(capabilities);
  const parameters = createParameterConverter();

  return (
    planned: TurnPlan,
    given: OpenAIResponsesFormatOptions = {},
  ): OpenAIResponsesFormatted => {
    const options = { ...defaults, ...given };
    const { plan, parts, names, providerNames } = asSent(planned, options.names);
    const warnings: ConversionWarning[] = [];
    const decoders = new Map<string, CallDecoder>();
    const native = plan.active && plan.nativeSearch;
    const clientSearch = !native && usesClientToolSearch(plan, options);
    const fn = (
      tool: ToolDefinition,
      deferred: boolean,
      sink = warnings,
    ): OpenAIResponsesFunction => {
      const converted = parameters(tool, options.strict === true, sink);
      const providerName = providerNames.get(tool.name) ?? tool.name;
      const decoder: CallDecoder = { name: tool.name };
      if (converted.restore) decoder.restore = converted.restore;
      decoders.set(providerName, decoder);
      const entry: OpenAIResponsesFunction = {
        type: "function",
        name: providerName,
        description: fitDescription(tool, capabilities, sink),
        parameters: converted.parameters,
        strict: converted.strict,
      };
      if (deferred) entry.defer_loading = true;
      return entry;
    };
    const search = parts.meta[0];
    const tools = responsesTools(parts, fn, {
      native,
      clientSearch,
      providerNames,
      namespaceSize: options.namespaceSize ?? 9,
    });
    const byName = new Map(parts.deferrable.map((tool) => [tool.name, tool]));
    // tools loaded by tool_search_output are not in `tools`, but their calls still need decoding
    if (clientSearch) for (const tool of parts.deferrable) fn(tool, false, []);
    const toolChoice = choice(options, providerNames, native ? byName : new Map(), warnings);
    const formatted = assembleFormatted<
      OpenAIResponsesTool,
      OpenAIResponsesToolChoice,
      OpenAIResponsesRequest
    >({
      plan,
      mode: native ? "native" : "client",
      tools,
      toolChoice,
      request: requestFields<OpenAIResponsesRequest>({
        tools,
        tool_choice: toolChoice,
        instructions: joinedSystem(plan, options.system),
      }),
      names,
      warnings,
      decoders,
      providerNames,
    });
    responsesState.set(formatted, {
      searchName: clientSearch ? search?.name : undefined,
      clientSearch,
      definition: (name) => {
        const tool = byName.get(name);
        return tool ? fn(tool, false, []) : undefined;
      },
    });
    return formatted;
  };
}

function choice(
  options: OpenAIResponsesFormatOptions,
  providerNames: ReadonlyMap<string, string>,
  deferred: ReadonlyMap<string, ToolDefinition>,
  warnings: ConversionWarning[],
): OpenAIResponsesToolChoice | undefined {
  const wanted = options.toolChoice;
  if (typeof wanted !== "object") return wanted;
  if (deferred.has(wanted.name)) {
    // a named tool_choice cannot target a deferred tool
    warnings.push(
      requestWarning(
        "option_ignored",
        `tool_choice "${wanted.name}" is deferred and cannot be named; sent "required"`,
      ),
    );
    return "required";
  }
  return { type: "function", name: providerNames.get(wanted.name) ?? wanted.name };
}
