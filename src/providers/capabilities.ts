/**
 * What each provider supports, as documented (reference/providers.md, 2026-11-21). Disclosure reads
 * these instead of asking which provider it serves.
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

/** The capability table, one entry per provider. */
export const PROVIDER_CAPABILITIES: Readonly<Record<ProviderId, ProviderCapabilities>> = {
  anthropic: {
    id: "anthropic",
    // current docs say 128; older docs and many clients still use 64
    maxToolNameLength: 128,
    namePattern: /^[a-zA-Z0-9_-]{1,128}$/,
    supportsDeferredLoading: true,
    supportsAllowedTools: false,
    schemaDialect: "json-schema",
    strictToolLimit: 20,
    maxDeferredTools: 10_000,
  },
  "openai-chat": {
    id: "openai-chat",
    maxToolNameLength: 64,
    namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
    // 128 comes from API errors reported in 2024–2025, not from the SDK docs [secondary]
    maxTools: 128,
    supportsDeferredLoading: false,
    supportsAllowedTools: true,
    schemaDialect: "json-schema",
    // historic limit; may have been lifted [unconfirmed], staying under it is safe
    maxDescriptionLength: 1024,
  },
  "openai-responses": {
    id: "openai-responses",
    maxToolNameLength: 64,
    namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
    // the maximum number of tools per Responses request is undocumented [unconfirmed]
    supportsDeferredLoading: true,
    supportsAllowedTools: true,
    schemaDialect: "json-schema",
    maxDescriptionLength: 1024,
  },
  gemini: {
    id: "gemini",
    // 128 per @google/genai 3.1.0; older docs said 63/64
    maxToolNameLength: 128,
    namePattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/,
    // from the SDK type docs; enforcement on the Gemini API (not Vertex) is [unconfirmed]
    maxTools: 512,
    supportsDeferredLoading: false,
    supportsAllowedTools: true,
    schemaDialect: "openapi-3.0-subset",
  },
};

/** Whether to use the provider's native tool search, and why. */
export interface NativeSearchDecision {
  native: boolean;
  reason: string;
}

// Claude tool-search table (platform docs): Fable 5, Mythos 5, Opus 4.5–4.8, Sonnet 4.5–4.6, Haiku 4.5
const CLAUDE_TOOL_SEARCH: Record<string, readonly string[]> = {
  fable: ["5"],
  mythos: ["5"],
  opus: ["4.5", "4.6", "4.7", "4.8"],
  sonnet: ["4.5", "4.6"],
  haiku: ["4.5"],
};

/** Family and version of a Claude model id (`claude-sonnet-4-5-20250929`, `anthropic.claude-opus-4-6-v1:0`, `claude-opus-4-5@20251101`). */
export function parseClaudeModel(model: string): { family: string; version: string } | undefined {
  const match =
    /claude-(opus|sonnet|haiku|fable|mythos)-(\d{1,2})(?:[-.](\d{1,2}))?(?=$|[-@:.]|_)/i.exec(
      model,
    );
  if (!match?.[1] || !match[2]) return undefined;
  return {
    family: match[1].toLowerCase(),
    version: match[3] ? `${match[2]}.${match[3]}` : match[2],
  };
}

/** Major and minor of an OpenAI GPT model id (`gpt-5.4`, `gpt-5.4-mini-2026-03-05`, `gpt-6`). */
export function parseGPTModel(model: string): { major: number; minor: number } | undefined {
  const match = /^(?:openai\/)?gpt-(\d+)(?:\.(\d+))?(?=$|-)/i.exec(model);
  if (!match?.[1]) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0) };
}

/**
 * Chooses native tool search or toolsift's client-side search for a provider and model, from the
 * documented model tables: Claude models in the tool-search table (Anthropic) and gpt-5.4 or later
 * on the Responses API (OpenAI). Unknown models, Chat Completions and Gemini use client-side
 * search. `override` forces the choice either way.
 */
export function nativeSearchSupport(
  provider: ProviderId,
  model: string,
  options: { override?: "native" | "client" } = {},
): NativeSearchDecision {
  if (options.override) {
    return { native: options.override === "native", reason: `override: ${options.override}` };
  }
  if (provider === "anthropic") {
    const parsed = parseClaudeModel(model);
    const supported = parsed
      ? (CLAUDE_TOOL_SEARCH[parsed.family] ?? []).includes(parsed.version)
      : false;
    return supported
      ? { native: true, reason: `${model} is in Anthropic's tool-search model table` }
      : { native: false, reason: `${model} is not in Anthropic's tool-search model table` };
  }
  if (provider === "openai-responses") {
    const parsed = parseGPTModel(model);
    const supported =
      parsed !== undefined && (parsed.major > 5 || (parsed.major === 5 && parsed.minor >= 4));
    return supported
      ? { native: true, reason: `${model} is gpt-5.4 or later (hosted tool_search)` }
      : {
          native: false,
          reason: `${model} is not known to support tool_search (gpt-5.4 or later only)`,
        };
  }
  return { native: false, reason: `${provider} has no native tool search` };
}
