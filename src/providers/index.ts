// Owns: one file set per provider: formatting, schema conversion, name mapping, parsing; capabilities.
// Must not import: mcp, cli, search internals.

export {
  type AnthropicFormatOptions,
  type AnthropicFormatter,
  createAnthropicFormatter,
  parseClaudeModel,
} from "./anthropic/index.js";
export {
  type AnthropicStrictLimits,
  type AnthropicStrictSelection,
  countStrictParameters,
  selectAnthropicStrictTools,
  toAnthropicInputSchema,
  toAnthropicStrictSchema,
} from "./anthropic/schema.js";
export { nativeSearchSupport, PROVIDER_CAPABILITIES } from "./capabilities.js";
export {
  enumText,
  type GeminiArgumentMapping,
  geminiPropertyNames,
  isGeminiPropertyName,
  restoreGeminiArguments,
} from "./gemini/arguments.js";
export {
  createGeminiFormatter,
  type GeminiFormatOptions,
  type GeminiFormatter,
} from "./gemini/index.js";
export {
  type GeminiConversion,
  type GeminiSchemaOptions,
  toGeminiSchema,
} from "./gemini/schema.js";
export {
  createNameMap,
  hashBase36,
  type NameMap,
  type NameMapEntry,
  type NameMapOptions,
  type NameMapTool,
  sanitizeName,
} from "./names.js";
export {
  createOpenAIChatFormatter,
  createOpenAIResponsesFormatter,
  type OpenAIChatFormatOptions,
  type OpenAIChatFormatter,
  type OpenAIResponsesFormatOptions,
  type OpenAIResponsesFormatter,
  parseGPTModel,
} from "./openai/index.js";
export {
  restoreOpenAIStrictArguments,
  toOpenAIParameters,
  toOpenAIStrictSchema,
} from "./openai/schema.js";
export { checkOpenAIStrictLimits, OPENAI_STRICT_LIMITS } from "./openai/strict-limits.js";
export type {
  NativeSearchDecision,
  ProviderCapabilities,
  ProviderId,
} from "./provider-capabilities.js";
export {
  PROVIDERS,
  type ProviderDefinition,
  type ProviderTypes,
  providerDefinition,
} from "./registry.js";
export type { ConversionOptions, SchemaConversion } from "./schema/schema-conversion.js";
export type { StrictConversion } from "./schema/strict-schema.js";
export type * from "./types.js";
export type { ConversionWarning, ConversionWarningCode } from "./warnings.js";
