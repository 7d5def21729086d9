/** Anthropic Messages: the `tools` array and `tool_choice` for a turn plan. */
import type { JsonSchema, ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import { assembleFormatted, requestFields } from "../assemble-formatted.js";
import { createPlanAsSent } from "../plan-as-sent.js";
import { joinedSystem } from "../plan-parts.js";
import { requestWarning } from "../request-warnings.js";
import { createConversionCache } from "../schema/conversion-cache.js";
import type { SchemaConversion } from "../schema/schema-conversion.js";
import type { CallDecoder } from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { ANTHROPIC_CAPABILITIES, anthropicNativeSearch } from "./capabilities.js";
import { selectAnthropicStrictTools, toAnthropicInputSchema } from "./schema.js";
import type {
  AnthropicCustomTool,
  AnthropicFormatOptions,
  AnthropicFormatted,
  AnthropicRequest,
  AnthropicSearchTool,
  AnthropicTool,
  AnthropicToolChoice,
} from "./wire-types.js";

/** What the result formatter needs to know about a formatted request. */
export interface AnthropicTurnState {
  references: boolean;
  searchName: string | undefined;
}

export const anthropicState = new WeakMap<AnthropicFormatted, AnthropicTurnState>();

const SEARCH_TOOLS: Record<"bm25" | "regex", AnthropicSearchTool> = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
};

// tool_reference needs deferred loading, which exactly the tool-search models support
function referencesByDefault(model: string | undefined): boolean {
  return model !== undefined && anthropicNativeSearch(model).native;
}

/** Builds the Anthropic `formatTools`; conversions are memoised per tool object. */
export function createAnthropicToolFormatter(defaults: AnthropicFormatOptions = {}) {
  const capabilities = ANTHROPIC_CAPABILITIES;
  const asSent = createPlanAsSent(capabilities);
  const convert = createConversionCache<SchemaConversion>();

  return (planned: TurnPlan, given: AnthropicFormatOptions = {}): AnthropicFormatted => {
    const options = { ...defaults, ...given };
    const { plan, parts, names, providerNames } = asSent(planned, options.names);
    const warnings: ConversionWarning[] = [];
    const native = plan.active && plan.nativeSearch;
    const references =
      !native &&
      plan.active &&
      plan.strategy === "reveal" &&
      (options.toolReferences ?? referencesByDefault(options.model));
    const deferredSent = native || references ? parts.deferrable : [];
    const loaded: ToolDefinition[] = [
      ...parts.meta,
      ...parts.core,
      ...(native || references ? [] : parts.revealed),
    ];
    const strict = options.strict ? strictSchemas(loaded, warnings) : new Map<string, JsonSchema>();
    const custom = (tool: ToolDefinition, deferred: boolean): AnthropicCustomTool => {
      const conversion = convert(tool, "input", () =>
        toAnthropicInputSchema(tool.inputSchema, { tool: tool.name }),
      );
      warnings.push(...conversion.warnings);
      const strictSchema = strict.get(tool.name);
      const entry: AnthropicCustomTool = {
        name: providerNames.get(tool.name) ?? tool.name,
        description: tool.description,
        input_schema: (strictSchema ?? conversion.schema) as AnthropicCustomTool["input_schema"],
      };
      if (strictSchema) entry.strict = true;
      if (deferred) entry.defer_loading = true;
      return entry;
    };
    const tools: AnthropicTool[] = [];
    if (native) tools.push({ ...SEARCH_TOOLS[options.searchTool ?? "bm25"] });
    for (const tool of loaded) tools.push(custom(tool, false));
    // the breakpoint goes on the last tool the model always sees; deferred tools may not carry one
    const last = tools.at(-1);
    if (last && options.cacheControl !== false) last.cache_control = { type: "ephemeral" };
    for (const tool of deferredSent) tools.push(custom(tool, true));
    const decoders = new Map<string, CallDecoder>();
    for (const [name, providerName] of providerNames) decoders.set(providerName, { name });
    const toolChoice = choice(options, providerNames);
    const formatted = assembleFormatted<AnthropicTool, AnthropicToolChoice, AnthropicRequest>({
      plan,
      mode: native ? "native" : "client",
      tools,
      toolChoice,
      request: requestFields<AnthropicRequest>({
        tools,
        tool_choice: toolChoice,
        system: joinedSystem(plan, options.system),
      }),
      names,
      warnings,
      decoders,
      providerNames,
    });
    anthropicState.set(formatted, {
      references,
      searchName: references ? parts.meta[0]?.name : undefined,
    });
    return formatted;
  };
}

function strictSchemas(tools: readonly ToolDefinition[], warnings: ConversionWarning[]) {
  const selection = selectAnthropicStrictTools(tools);
  for (const rejected of selection.rejected) {
    warnings.push(
      requestWarning("strict_unavailable", `sent non-strict: ${rejected.reason}`, rejected.name),
    );
  }
  return new Map(selection.strict.map((entry) => [entry.name, entry.schema]));
}

function choice(
  options: AnthropicFormatOptions,
  providerNames: ReadonlyMap<string, string>,
): AnthropicToolChoice | undefined {
  const wanted = options.toolChoice;
  if (wanted === undefined) return undefined;
  if (wanted === "auto") return { type: "auto" };
  if (wanted === "required") return { type: "any" };
  if (wanted === "none") return { type: "none" };
  return { type: "tool", name: providerNames.get(wanted.name) ?? wanted.name };
}
