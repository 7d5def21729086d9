/** The Gemini formatter: function declarations, client-side search only. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import {
  createConversionCache,
  createNameMapCache,
  joinedSystem,
  lastFormatted,
  planParts,
  providerNameMap,
  requireClientPlan,
  toolLimitWarnings,
} from "../plan-parts.js";
import type {
  BaseFormatOptions,
  CallDecoder,
  CallOutcome,
  FormattedTools,
  ProviderFormatter,
} from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { restoreGeminiArguments } from "./arguments.js";
import { GEMINI_CAPABILITIES } from "./capabilities.js";
import {
  formatGeminiResults,
  type GeminiResponseLike,
  type GeminiResultContent,
  parseGeminiCalls,
} from "./round-trip.js";
import { type GeminiConversion, toGeminiSchema } from "./schema.js";

/** One function declaration. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: { [key: string]: unknown };
  parametersJsonSchema?: { [key: string]: unknown };
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * `functionCallingConfig` of the request. `mode` is `"AUTO"`, `"ANY"` or `"NONE"`; it is typed
 * through the index signature because the SDK types it as a TypeScript enum, which no string
 * literal type is assignable to.
 */
export interface GeminiFunctionCallingConfig {
  allowedFunctionNames?: string[];
  [field: string]: unknown;
}

/** `toolConfig` of the request. */
export interface GeminiToolConfig {
  functionCallingConfig: GeminiFunctionCallingConfig;
}

/** The `config` fields toolsift sets: Gemini takes tools (and system text) in `config`. */
export interface GeminiRequestConfig {
  tools: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  /** Only when you passed `system`: your prompt followed by the plan's note. */
  systemInstruction?: string;
}

/**
 * The fragment to spread into `ai.models.generateContent({ model, contents, ...request })`. With
 * a `config` of your own, merge it: `config: { ...yours, ...request.config }`.
 */
export interface GeminiRequest {
  config: GeminiRequestConfig;
}

/** Options of the Gemini formatter. */
export interface GeminiFormatOptions extends BaseFormatOptions {
  /**
   * Which schema field to send. `auto` (default) sends `parameters` (the OpenAPI subset) unless
   * that conversion is lossy or bloated: it cut a `$ref` (recursive or too large to inline), or
   * it is more than twice the size of the original schema and over 8,000 characters (inlined
   * `$ref` blow-ups); those tools get `parametersJsonSchema`.
   */
  schemaField?: "auto" | "parameters" | "parametersJsonSchema";
}

export type GeminiFormatted = FormattedTools<GeminiTool, GeminiToolConfig, GeminiRequest>;

export type GeminiFormatter = ProviderFormatter<
  GeminiFormatOptions,
  GeminiTool,
  GeminiToolConfig,
  GeminiRequest,
  GeminiResponseLike,
  GeminiResultContent[]
>;

function chooseField(tool: ToolDefinition, converted: GeminiConversion): boolean {
  if (converted.warnings.some((warning) => warning.code === "recursion_cut")) return true;
  const before = JSON.stringify(tool.inputSchema).length;
  const after = JSON.stringify(converted.schema ?? {}).length;
  return after > 2 * before && after > 8_000;
}

/**
 * Creates the Gemini formatter. Gemini has no native tool search, so plans must be prepared with
 * `nativeSearch: false`. Renamed properties and stringified enums are mapped back by `parseCalls`.
 * @example
 * const gemini = createGeminiFormatter();
 * const turn = gemini.formatTools(disclosure.prepare({ session }));
 * const response = await ai.models.generateContent({ model, contents, ...turn.request });
 */
export function createGeminiFormatter(defaults: GeminiFormatOptions = {}): GeminiFormatter {
  const capabilities = GEMINI_CAPABILITIES;
  const nameMaps = createNameMapCache(capabilities);
  const convert = createConversionCache<GeminiConversion>();
  const last = lastFormatted<GeminiFormatted>("gemini");

  const declare = (
    tool: ToolDefinition,
    providerName: string,
    field: GeminiFormatOptions["schemaField"],
    warnings: ConversionWarning[],
  ): { declaration: GeminiFunctionDeclaration; decoder: CallDecoder } => {
    let converted =
      field === "parametersJsonSchema"
        ? undefined
        : convert(tool, "parameters", () => toGeminiSchema(tool.inputSchema, { tool: tool.name }));
    if (!converted || (field !== "parameters" && chooseField(tool, converted))) {
      converted = convert(tool, "json", () =>
        toGeminiSchema(tool.inputSchema, { tool: tool.name, field: "parametersJsonSchema" }),
      );
    }
    warnings.push(...converted.warnings);
    const declaration: GeminiFunctionDeclaration = {
      name: providerName,
      description: tool.description,
    };
    if (converted.schema) declaration[converted.field] = converted.schema;
    const mapping = converted.mapping;
    const decoder: CallDecoder = { name: tool.name };
    if (Object.keys(mapping.renamed).length > 0 || Object.keys(mapping.values).length > 0)
      decoder.restore = (args) => restoreGeminiArguments(args, mapping);
    return { declaration, decoder };
  };

  const formatTools = (plan: TurnPlan, given: GeminiFormatOptions = {}): GeminiFormatted => {
    requireClientPlan(plan, capabilities);
    const options = { ...defaults, ...given };
    const parts = planParts(plan);
    const names = nameMaps(parts, options.names);
    const providerNames = providerNameMap(parts, names);
    const warnings: ConversionWarning[] = [];
    const decoders = new Map<string, CallDecoder>();
    const declarations = [...parts.meta, ...parts.core, ...parts.revealed].map((tool) => {
      const providerName = providerNames.get(tool.name) ?? tool.name;
      const { declaration, decoder } = declare(tool, providerName, options.schemaField, warnings);
      decoders.set(providerName, decoder);
      return declaration;
    });
    warnings.push(...toolLimitWarnings(declarations.length, capabilities));
    const tools: GeminiTool[] =
      declarations.length > 0 ? [{ functionDeclarations: declarations }] : [];
    const wanted = options.toolChoice;
    let toolConfig: GeminiToolConfig | undefined;
    if (wanted === "required") toolConfig = { functionCallingConfig: { mode: "ANY" } };
    else if (wanted === "none") toolConfig = { functionCallingConfig: { mode: "NONE" } };
    else if (typeof wanted === "object") {
      toolConfig = {
        functionCallingConfig: {
          mode: "ANY",
          allowedFunctionNames: [providerNames.get(wanted.name) ?? wanted.name],
        },
      };
    }
    const config: GeminiRequestConfig = { tools };
    if (toolConfig) config.toolConfig = toolConfig;
    const system = joinedSystem(plan, options.system);
    if (system !== undefined) config.systemInstruction = system;
    const request: GeminiRequest = { config };
    const formatted: GeminiFormatted = {
      tools,
      system: plan.system,
      mode: "client",
      names,
      warnings,
      request,
      decoders,
      providerNames,
    };
    if (toolConfig) formatted.toolChoice = toolConfig;
    return last.set(formatted);
  };

  const parseCalls = (response: GeminiResponseLike, given?: GeminiFormatted) =>
    parseGeminiCalls(response, last.get(given));
  const formatResults = (outcomes: readonly CallOutcome[]) => formatGeminiResults(outcomes);

  return { capabilities, formatTools, parseCalls, formatResults };
}
