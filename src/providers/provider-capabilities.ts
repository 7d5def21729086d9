/**
 * The shape of what a provider supports. Each provider folder fills one in; the table of all of
 * them (`capabilities.ts`) sits above the folders, so this file imports nothing.
 */

/** The provider ids toolsift formats requests for. */
export type ProviderId = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** Documented limits and features of one provider's tool API. */
export interface ProviderCapabilities {
  id: ProviderId;
  /** Longest tool name the API accepts, in characters. */
  maxToolNameLength: number;
  /** Pattern every tool name must match. */
  namePattern: RegExp;
  /** Tool names must start with a letter or `_` (a leading `_` is added to others). */
  leadingLetterNames?: boolean;
  /** Most tool definitions per request, when one is known. */
  maxTools?: number;
  /** Native deferred loading (`defer_loading`) with server-side tool search exists for some models. */
  supportsDeferredLoading: boolean;
  /** The request can keep every tool but restrict which may be called (`allowed_tools` / `allowedFunctionNames`). */
  supportsAllowedTools: boolean;
  /** `json-schema`: plain JSON Schema; `openapi-3.0-subset`: Gemini's `parameters` Schema proto. */
  schemaDialect: "json-schema" | "openapi-3.0-subset";
  /** Most `strict: true` tools per request, when limited. */
  strictToolLimit?: number;
  /** Most deferred tools per request with native tool search. */
  maxDeferredTools?: number;
  /** Longest tool description, when one is enforced. */
  maxDescriptionLength?: number;
}

/** Whether to use the provider's native tool search, and why. */
export interface NativeSearchDecision {
  native: boolean;
  reason: string;
}
