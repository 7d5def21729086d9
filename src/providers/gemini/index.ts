// Owns: the Gemini formatter (function declarations, parameters / parametersJsonSchema, argument restoring).
// Must not import: mcp, cli, search; never the @google/genai SDK (its types are only used in tests).

export type * from "../types.js";
export { type GeminiArgumentMapping, restoreGeminiArguments } from "./arguments.js";
export { GEMINI_CAPABILITIES } from "./capabilities.js";
export { createGeminiFormatter, type GeminiFormatter } from "./create-gemini-formatter.js";
export { GENERATED_CALL_ID } from "./parse-calls.js";
export { type GeminiConversion, type GeminiSchemaOptions, toGeminiSchema } from "./schema.js";
export type {
  GeminiFormatOptions,
  GeminiFormatted,
  GeminiFunctionCallingConfig,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiRequest,
  GeminiRequestConfig,
  GeminiResponseLike,
  GeminiResponsePart,
  GeminiResultContent,
  GeminiTool,
  GeminiToolConfig,
} from "./wire-types.js";
