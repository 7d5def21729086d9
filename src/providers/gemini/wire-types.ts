/** Gemini wire types: structural copies of the @google/genai parameter types (the SDK stays a dev dependency). */
import type { BaseFormatOptions, FormattedTools } from "../types.js";

/** The part of a `generateContent` response the parser reads (an SDK response fits). */
export interface GeminiResponseLike {
  candidates?: ReadonlyArray<{
    content?: {
      parts?: ReadonlyArray<{ functionCall?: { id?: string; name?: string; args?: unknown } }>;
    };
  }>;
}

/** Media inside a function response (multimodal function responses). */
export interface GeminiResponsePart {
  inlineData: { mimeType: string; data: string };
}

/** One `functionResponse` part. */
export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: { output: string } | { error: string };
  /** Images of the result, as Gemini's media parts instead of base64 text. */
  parts?: GeminiResponsePart[];
}

/** The content that answers a turn's function calls. */
export interface GeminiResultContent {
  role: "user";
  parts: { functionResponse: GeminiFunctionResponse }[];
}

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
