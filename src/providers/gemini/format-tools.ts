/** Gemini: function declarations (`parameters` or `parametersJsonSchema`) and the tool config. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import { assembleFormatted, requestFields } from "../assemble-formatted.js";
import { createPlanAsSent } from "../plan-as-sent.js";
import { joinedSystem, requireClientPlan } from "../plan-parts.js";
import { toolLimitWarnings } from "../request-warnings.js";
import { createConversionCache } from "../schema/conversion-cache.js";
import type { CallDecoder } from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { restoreGeminiArguments } from "./arguments.js";
import { GEMINI_CAPABILITIES } from "./capabilities.js";
import { type GeminiConversion, toGeminiSchema } from "./schema.js";
import type {
  GeminiFormatOptions,
  GeminiFormatted,
  GeminiFunctionDeclaration,
  GeminiRequest,
  GeminiRequestConfig,
  GeminiTool,
  GeminiToolConfig,
} from "./wire-types.js";

function chooseField(tool: ToolDefinition, converted: GeminiConversion): boolean {
  if (converted.warnings.some((warning) => warning.code === "recursion_cut")) return true;
  const before = JSON.stringify(tool.inputSchema).length;
  const after = JSON.stringify(converted.schema ?? {}).length;
  return after > 2 * before && after > 8_000;
}

/** Gemini's `toolConfig` for a tool choice; a forced tool is named as the provider was sent it. */
function toolConfigOf(
  wanted: GeminiFormatOptions["toolChoice"],
  providerNames: ReadonlyMap<string, string>,
): GeminiToolConfig | undefined {
  if (wanted === "required") return { functionCallingConfig: { mode: "ANY" } };
  if (wanted === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (typeof wanted === "object") {
    return {
      functionCallingConfig: {
        mode: "ANY",
        allowedFunctionNames: [providerNames.get(wanted.name) ?? wanted.name],
      },
    };
  }
  return undefined;
}

/** Builds the Gemini `formatTools`; conversions are memoised per tool object. */
export function createGeminiToolFormatter(defaults: GeminiFormatOptions = {}) {
  const capabilities = GEMINI_CAPABILITIES;
  const asSent = createPlanAsSent(capabilities);
  const convert = createConversionCache<GeminiConversion>();

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

  const formatTools = (planned: TurnPlan, given: GeminiFormatOptions = {}): GeminiFormatted => {
    requireClientPlan(planned, capabilities);
    const options = { ...defaults, ...given };
    const { plan, parts, names, providerNames } = asSent(planned, options.names);
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
    const toolConfig = toolConfigOf(options.toolChoice, providerNames);
    const config = requestFields<GeminiRequestConfig>({
      tools,
      toolConfig,
      systemInstruction: joinedSystem(plan, options.system),
    });
    const formatted = assembleFormatted<GeminiTool, GeminiToolConfig, GeminiRequest>({
      plan,
      mode: "client",
      tools,
      toolChoice: toolConfig,
      request: { config },
      names,
      warnings,
      decoders,
      providerNames,
    });
    return formatted;
  };

  return formatTools;
}
