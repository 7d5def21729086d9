/**
 * Provider turns for the facade: choose native or client-side search for a provider and model,
 * format the plan into a request fragment, and read the model's response back into executed calls
 * and provider-shaped results. The formatted request of each (session, provider) is kept so that
 * parsing maps names back exactly as they were sent.
 */

import type { Disclosure, PrepareInput, TurnPlan, TurnSettings } from "./disclosure/index.js";
import { ToolsiftError } from "./errors.js";
import {
  type CallOutcome,
  createAnthropicFormatter,
  createGeminiFormatter,
  createOpenAIChatFormatter,
  createOpenAIResponsesFormatter,
  type FormattedTools,
  nativeSearchSupport,
  type ProviderCapabilities,
  type ProviderId,
  type UnifiedCall,
} from "./providers/index.js";
import type { ConversionWarning } from "./providers/warnings.js";

/** Input of a provider turn: the session, the provider and (for native search) the model. */
export interface ProviderTurnInput extends PrepareInput {
  provider: ProviderId;
  /** Model id; decides native vs client-side search from the documented model tables. */
  model?: string;
  /** Forces native or client-side search, for gateways that hide the model. */
  search?: "native" | "client";
  /** Passed to the provider's formatter (tool choice, strict mode, name rules, …). */
  format?: Record<string, unknown>;
}

/** A formatted turn: spread `request` into the SDK call and add `system` to your system prompt. */
export interface ProviderTurn {
  provider: ProviderId;
  plan: TurnPlan;
  request: unknown;
  tools: unknown[];
  toolChoice?: unknown;
  system: string;
  mode: "native" | "client";
  /** Why native or client-side search was chosen. */
  searchReason: string;
  warnings: ConversionWarning[];
}

/** The executed calls of one model response and the result message(s) to send back. */
export interface ProviderResponseOutcome {
  calls: UnifiedCall[];
  outcomes: CallOutcome[];
  /** Provider-shaped tool results (a message, or a list of input items / parts). */
  results: unknown;
  /** True when the response asked for no tool that toolsift runs (the loop may stop). */
  done: boolean;
}

type AnyFormatted = FormattedTools<unknown, unknown, unknown>;

/** The four formatters differ only in their type parameters; method syntax lets each one stand
 * in for this shape (TypeScript checks method parameters bivariantly). */
interface AnyFormatter {
  capabilities: ProviderCapabilities;
  formatTools(plan: TurnPlan, options?: unknown): AnyFormatted;
  parseCalls(response: unknown, formatted?: AnyFormatted): UnifiedCall[];
  formatResults(outcomes: readonly CallOutcome[], formatted?: AnyFormatted): unknown;
}

const FORMATTED_SESSIONS = 1_000;

/** Creates the provider-turn helpers over one disclosure layer. */
export function createProviderTurns(disclosure: Disclosure) {
  const formatters = new Map<string, AnyFormatter>();
  const formattedBySession = new Map<string, AnyFormatted>();

  const formatterFor = (provider: ProviderId, model: string | undefined): AnyFormatter => {
    const key = `${provider}\u0000${model ?? ""}`;
    let formatter = formatters.get(key);
    if (!formatter) {
      const withModel = model === undefined ? {} : { model };
      switch (provider) {
        case "anthropic":
          formatter = createAnthropicFormatter(withModel);
          break;
        case "openai-chat":
          formatter = createOpenAIChatFormatter();
          break;
        case "openai-responses":
          formatter = createOpenAIResponsesFormatter(withModel);
          break;
        case "gemini":
          formatter = createGeminiFormatter();
          break;
        default:
          throw new ToolsiftError(
            "invalid_option",
            `Unknown provider "${String(provider)}": use anthropic, openai-chat, openai-responses or gemini.`,
          );
      }
      formatters.set(key, formatter);
    }
    return formatter;
  };

  const remember = (key: string, formatted: AnyFormatted) => {
    formattedBySession.delete(key);
    formattedBySession.set(key, formatted);
    for (const old of formattedBySession.keys()) {
      if (formattedBySession.size <= FORMATTED_SESSIONS) break;
      formattedBySession.delete(old);
    }
  };

  /** Plans and formats one turn for a provider. */
  const prepareFor = (input: ProviderTurnInput): ProviderTurn => {
    const { provider, model, search, format, ...turn } = input;
    const formatter = formatterFor(provider, model);
    const decision = nativeSearchSupport(provider, model ?? "", search ? { override: search } : {});
    const limit = formatter.capabilities.maxTools;
    // the provider's tool limit binds the plan: disclosure defers what it must, or throws
    const settings: PrepareInput & TurnSettings = {
      ...turn,
      nativeSearch: decision.native,
      ...(limit !== undefined && turn.maxTools === undefined ? { maxTools: limit } : {}),
    };
    const plan = disclosure.prepare(settings);
    const formatted = formatter.formatTools(plan, format);
    remember(`${turn.session}\u0000${provider}`, formatted);
    return {
      provider,
      plan,
      request: formatted.request,
      tools: formatted.tools,
      ...(formatted.toolChoice !== undefined ? { toolChoice: formatted.toolChoice } : {}),
      system: formatted.system,
      mode: formatted.mode,
      searchReason: decision.reason,
      warnings: formatted.warnings,
    };
  };

  /** Parses a model response, runs every call toolsift handles, and formats the results. */
  const respond = async (input: {
    session: string;
    provider: ProviderId;
    model?: string;
    response: unknown;
    signal?: AbortSignal;
  }): Promise<ProviderResponseOutcome> => {
    const formatted = formattedBySession.get(`${input.session}\u0000${input.provider}`);
    if (!formatted) {
      throw new ToolsiftError(
        "invalid_option",
        `No turn was prepared for session "${input.session}" and provider "${input.provider}": call prepare({ session, provider }) before respond().`,
      );
    }
    const formatter = formatterFor(input.provider, input.model);
    const calls = formatter.parseCalls(input.response, formatted);
    const outcomes: CallOutcome[] = [];
    for (const call of calls) {
      if (call.kind === "server_search") continue; // the provider already ran it
      const outcome = await disclosure.execute({
        session: input.session,
        name: call.name,
        arguments: call.arguments,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      outcomes.push({ call, outcome });
    }
    return {
      calls,
      outcomes,
      results: formatter.formatResults(outcomes, formatted),
      done: outcomes.length === 0,
    };
  };

  return { prepareFor, respond };
}
