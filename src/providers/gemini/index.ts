// Owns: the Gemini formatter (function declarations, parameters / parametersJsonSchema, argument restoring).
// Must not import: mcp, cli, search; never the @google/genai SDK (its types are only used in tests).

export type * from "../types.js";
export { type GeminiArgumentMapping, restoreGeminiArguments } from "./arguments.js";
export {
  createGeminiFormatter,
  type GeminiFormatOptions,
  type GeminiFormatted,
  type GeminiFormatter,
  type GeminiFunctionCallingConfig,
  type GeminiFunctionDeclaration,
  type GeminiRequest,
  type GeminiRequestConfig,
  type GeminiTool,
  type GeminiToolConfig,
} from "./create-gemini-formatter.js";
export {
  GENERATED_CALL_ID,
  type GeminiFunctionResponse,
  type GeminiResponseLike,
  type GeminiResponsePart,
  type GeminiResultContent,
} from "./round-trip.js";
export { type GeminiConversion, type GeminiSchemaOptions, toGeminiSchema } from "./schema.js";
