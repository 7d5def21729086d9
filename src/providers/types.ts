/** The contract every provider formatter implements: tools out, calls in, results out. */
import type { ExecuteOutcome, TurnPlan } from "../disclosure/index.js";
import type { NameMap, NameMapOptions } from "./names.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";
import type { ConversionWarning } from "./warnings.js";

/** Which tool the model may or must call: a catalog (or meta) name is mapped to the provider name. */
export type ToolChoiceOption = "auto" | "required" | "none" | { name: string };

/** Options every formatter accepts. */
export interface BaseFormatOptions {
  /** Tool choice for this request; omitted means the provider default (auto). */
  toolChoice?: ToolChoiceOption;
  /** How provider names are built (maxLength defaults to 64, safe everywhere). */
  names?: NameMapOptions;
  /**
   * Your own system prompt. When given, the request fragment carries it, followed by the plan's
   * note, in the provider's own field (Anthropic `system`, Responses `instructions`, Gemini
   * `config.systemInstruction`), so spreading the fragment sets the whole system text. Chat
   * Completions has no such field: put `system` in your first message.
   */
  system?: string;
}

/** How to turn one call's provider arguments back into the arguments the catalog tool expects. */
export interface CallDecoder {
  /** Catalog (or meta tool) name. */
  name: string;
  /** Restores renamed properties, stringified enums or strict-mode nulls; identity when absent. */
  restore?: (args: unknown) => unknown;
}

/**
 * A formatted request fragment. `request` is ready to spread into the SDK call's parameters
 * (Gemini's tools sit in its `config` member, as `generateContent` wants them); `tools` and
 * `toolChoice` are the same values, for callers who assemble the request themselves.
 */
export interface FormattedTools<TTool, TChoice, TRequest> {
  tools: TTool[];
  toolChoice?: TChoice;
  /** The system-prompt note of the plan (empty when disclosure is inactive); add it to your own. */
  system: string;
  /** `native`: the provider searches deferred tools; `client`: toolsift's search meta tools. */
  mode: "native" | "client";
  names: NameMap;
  warnings: ConversionWarning[];
  request: TRequest;
  /** Decoders by provider name, used by `parseCalls`. */
  decoders: ReadonlyMap<string, CallDecoder>;
  /** Catalog name → provider name of every tool in the plan (loaded, deferred and meta). */
  providerNames: ReadonlyMap<string, string>;
}

/** A search the provider ran itself, and the tools it loaded (catalog names), so they can be revealed. */
export interface NativeSearchEvent {
  /** What the model searched for (the provider's input, unchanged). */
  input: unknown;
  /** Catalog names of the tools the search referenced or loaded, in order. */
  referenced: string[];
  /** Provider error code, when the search failed. */
  error?: string;
}

/**
 * One tool call from a model response, in provider-neutral form. `function` and `client_search`
 * calls go to `disclosure.execute({ name, arguments })`; `server_search` calls already ran on the
 * provider and only report what they loaded.
 */
export interface UnifiedCall {
  /** The provider's call id (`toolu_…`, `call_…`); generated for Gemini calls without one. */
  id: string;
  /** Catalog or meta tool name, mapped back through the name map. */
  name: string;
  /** Arguments restored to the catalog tool's shape; a string when the provider sent invalid JSON. */
  arguments: unknown;
  /** The name as the provider sent it. */
  providerName: string;
  kind: "function" | "server_search" | "client_search";
  /** OpenAI Responses: the namespace of a namespaced function call. */
  namespace?: string;
  /** For `server_search` calls: what the provider's search did. */
  native?: NativeSearchEvent;
}

/** One executed call and its outcome, as `formatResults` takes them. */
export interface CallOutcome {
  call: UnifiedCall;
  outcome: ExecuteOutcome;
}

/** One provider's formatter: capabilities, request formatting, response parsing, result formatting. */
export interface ProviderFormatter<
  TOptions extends BaseFormatOptions,
  TTool,
  TChoice,
  TRequest,
  TResponse,
  TResults,
> {
  readonly capabilities: ProviderCapabilities;
  /** Formats a turn plan; pure, and the same plan and options give byte-identical JSON. */
  formatTools(plan: TurnPlan, options?: TOptions): FormattedTools<TTool, TChoice, TRequest>;
  /**
   * Reads the tool calls of a response. `formatted` defaults to the last `formatTools` result of
   * this formatter; pass it explicitly when one formatter serves several sessions.
   */
  parseCalls(
    response: TResponse,
    formatted?: FormattedTools<TTool, TChoice, TRequest>,
  ): UnifiedCall[];
  /**
   * Formats executed calls as the messages (or input items) to append to the conversation, in
   * order; server searches are skipped. Empty when there is nothing to send back.
   */
  formatResults(
    outcomes: readonly CallOutcome[],
    formatted?: FormattedTools<TTool, TChoice, TRequest>,
  ): TResults;
}
