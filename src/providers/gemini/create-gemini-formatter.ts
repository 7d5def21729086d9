/** The Gemini formatter: function declarations, client-side search only. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { TurnPlan } from "../../disclosure/index.js";
import { PROVIDER_CAPABILITIES } from "../capabilities.js";
import {
  catalogName,
  createConversionCache,
  createNameMapCache,
  lastFormatted,
  objectEntries,
  outcomeText,
  planParts,
  providerNameMap,
  requireClientPlan,
  responseList,
  toolLimitWarnings,
} from "../plan-parts.js";
import type {
  BaseFormatOptions,
  CallDecoder,
  CallOutcome,
  FormattedTools,
  ProviderFormatter,
  UnifiedCall,
} from "../types.js";
import type { ConversionWarning } from "../warnings.js";
import { restoreGeminiArguments } from "./arguments.js";
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

/** `toolConfig` of the request. */
export interface GeminiToolConfig {
  functionCallingConfig: { mode: "AUTO" | "ANY" | "NONE"; allowedFunctionNames?: string[] };
}

/** Fields to spread into the `config` of `ai.models.generateContent`. */
export interface GeminiRequest {
  tools: GeminiTool[];
  toolConfig?: GeminiToolConfig;
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

/** The part of a `generateContent` response the parser reads. */
export interface GeminiResponseLike {
  candidates?: ReadonlyArray<{
    content?: {
      parts?: ReadonlyArray<{ functionCall?: { id?: string; name?: string; args?: unknown } }>;
    };
  }>;
}

type Candidate = NonNullable<GeminiResponseLike["candidates"]>[number];
type CandidatePart = NonNullable<NonNullable<Candidate["content"]>["parts"]>[number];

/** The content that answers a turn's function calls. */
export interface GeminiResultContent {
  role: "user";
  parts: {
    functionResponse: {
      id?: string;
      name: string;
      response: { output: string } | { error: string };
    };
  }[];
}

export type GeminiFormatted = FormattedTools<GeminiTool, GeminiToolConfig, GeminiRequest>;

export type GeminiFormatter = ProviderFormatter<
  GeminiFormatOptions,
  GeminiTool,
  GeminiToolConfig,
  GeminiRequest,
  GeminiResponseLike,
  GeminiResultContent
>;

/** Prefix of the ids toolsift gives Gemini calls that came without one. */
export const GENERATED_CALL_ID = "toolsift-gemini-";

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
 * const response = await ai.models.generateContent({ model, contents, config: { ...turn.request } });
 */
export function createGeminiFormatter(defaults: GeminiFormatOptions = {}): GeminiFormatter {
  const capabilities = PROVIDER_CAPABILITIES.gemini;
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
    const request: GeminiRequest = { tools };
    if (toolConfig) request.toolConfig = toolConfig;
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

  const parseCalls = (response: GeminiResponseLike, given?: GeminiFormatted): UnifiedCall[] => {
    const formatted = last.get(given);
    const calls: UnifiedCall[] = [];
    const candidate = responseList<Candidate>(response, "candidates", "gemini", true)[0];
    for (const part of objectEntries<CandidatePart>(candidate?.content?.parts)) {
      const functionCall = part.functionCall;
      if (!functionCall) continue;
      const providerName = String(functionCall.name ?? "");
      const decoder = formatted.decoders.get(providerName);
      const args = functionCall.args ?? {};
      calls.push({
        id: functionCall.id ?? `${GENERATED_CALL_ID}${calls.length}`,
        name: decoder?.name ?? catalogName(formatted.names, providerName),
        arguments: decoder?.restore ? decoder.restore(args) : args,
        providerName,
        kind: "function",
      });
    }
    return calls;
  };

  const formatResults = (outcomes: readonly CallOutcome[]): GeminiResultContent => ({
    role: "user",
    parts: outcomes
      .filter(({ call }) => call.kind !== "server_search")
      .map(({ call, outcome }) => {
        const text = outcomeText(outcome);
        const functionResponse: GeminiResultContent["parts"][number]["functionResponse"] = {
          name: call.providerName,
          response: outcome.isError ? { error: text } : { output: text },
        };
        // ids toolsift made up were never seen by Gemini, so they are not sent back
        if (!call.id.startsWith(GENERATED_CALL_ID)) functionResponse.id = call.id;
        return { functionResponse };
      }),
  });

  return { capabilities, formatTools, parseCalls, formatResults };
}
