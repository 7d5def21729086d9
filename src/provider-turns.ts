/**
 * Provider turns for the facade: choose native or client-side search for a provider and model,
 * format the plan into a request fragment, and read the model's response back into executed calls
 * and provider-shaped results. Providers are looked up by id in `PROVIDERS`; the types of a turn
 * follow its provider (`ProviderTurn<"gemini">` has Gemini's request and results). The formatted
 * request of each (session, provider) is kept so that parsing maps names back exactly as they were
 * sent.
 */

import type { Disclosure, PrepareInput, TurnPlan, TurnSettings } from "./disclosure/index.js";
import { ToolsiftError } from "./errors.js";
import { metaArguments, providerNameView, shownOutcome } from "./provider-names.js";
import {
  type CallOutcome,
  type FormattedTools,
  nativeSearchSupport,
  type ProviderCapabilities,
  type ProviderId,
  type ProviderTypes,
  providerDefinition,
  type UnifiedCall,
} from "./providers/index.js";
import type { ConversionWarning } from "./providers/warnings.js";

/** Input of a provider turn: the session, the provider and (for native search) the model. */
export interface ProviderTurnInput<P extends ProviderId = ProviderId> extends PrepareInput {
  provider: P;
  /** Model id; decides native vs client-side search from the documented model tables. */
  model?: string;
  /** Forces native or client-side search, for gateways that hide the model. */
  search?: "native" | "client";
  /**
   * Your system prompt. When given, `request` carries it followed by toolsift's note in the
   * provider's field (Anthropic `system`, Responses `instructions`, Gemini `config.systemInstruction`);
   * Chat Completions has none, so there `turn.system` goes into your system message.
   */
  system?: string;
  /** Passed to the provider's formatter (tool choice, strict mode, name rules, …). */
  format?: ProviderTypes[P]["options"];
}

/**
 * A formatted turn. Spread `request` into the SDK call's parameters: it holds the tools (Gemini:
 * inside `config`) and, when you passed `system`, the system text in the provider's field
 * (Responses: `instructions`). Otherwise add `system` to your own system prompt.
 */
export interface ProviderTurn<P extends ProviderId = ProviderId> {
  provider: P;
  plan: TurnPlan;
  request: ProviderTypes[P]["request"];
  tools: ProviderTypes[P]["tool"][];
  toolChoice?: ProviderTypes[P]["toolChoice"];
  /** toolsift's system note (empty when disclosure is inactive). */
  system: string;
  mode: "native" | "client";
  /** Why native or client-side search was chosen. */
  searchReason: string;
  warnings: ConversionWarning[];
}

/** Input of `respond`: the session and provider of a prepared turn and the SDK's response. */
export interface ProviderRespondInput<P extends ProviderId = ProviderId> {
  session: string;
  provider: P;
  model?: string;
  /** The response object the provider's SDK returned (structurally typed; the SDK's type fits). */
  response: ProviderTypes[P]["response"];
  signal?: AbortSignal;
}

/** The executed calls of one model response and the result messages to send back. */
export interface ProviderResponseOutcome<P extends ProviderId = ProviderId> {
  calls: UnifiedCall[];
  outcomes: CallOutcome[];
  /**
   * The messages (Responses: input items) to append after the model's own turn, in order:
   * `messages.push(...results)`. Empty when no call needs an answer, so nothing is pushed.
   */
  results: ProviderTypes[P]["result"][];
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
  formatResults(outcomes: readonly CallOutcome[], formatted?: AnyFormatted): unknown[];
}

const FORMATTED_SESSIONS = 1_000;

/** The tool a `toolChoice: { name }` format option forces, if any (a catalog name). */
function forcedTool(format: unknown): string | undefined {
  const choice = (format as { toolChoice?: unknown } | undefined)?.toolChoice;
  if (typeof choice !== "object" || choice === null) return undefined;
  const name = (choice as { name?: unknown }).name;
  return typeof name === "string" ? name : undefined;
}

/** The formatter of each provider and model, made on first use. */
function createFormatterLookup(): (
  provider: ProviderId,
  model: string | undefined,
) => AnyFormatter {
  const formatters = new Map<string, AnyFormatter>();
  return (provider, model) => {
    const key = `${provider}\u0000${model ?? ""}`;
    let formatter = formatters.get(key);
    if (!formatter) {
      const definition = providerDefinition(provider);
      if (!definition) {
        throw new ToolsiftError(
          "invalid_option",
          `Unknown provider "${String(provider)}": use anthropic, openai-chat, openai-responses or gemini.`,
        );
      }
      formatter = definition.createFormatter(model) as AnyFormatter;
      formatters.set(key, formatter);
    }
    return formatter;
  };
}

/** The last formatted request of each (session, provider), for the most recent
 * `FORMATTED_SESSIONS`: parsing the response maps names back exactly as they were sent. */
function createFormattedMemory() {
  const formattedBySession = new Map<string, AnyFormatted>();
  return {
    remember(key: string, formatted: AnyFormatted): void {
      formattedBySession.delete(key);
      formattedBySession.set(key, formatted);
      for (const old of formattedBySession.keys()) {
        if (formattedBySession.size <= FORMATTED_SESSIONS) break;
        formattedBySession.delete(old);
      }
    },
    get: (key: string): AnyFormatted | undefined => formattedBySession.get(key),
  };
}

/** The turn's settings bound by the provider: its tool limit, native search, and a forced tool
 * kept loaded. */
function providerBoundSettings(
  turn: PrepareInput & TurnSettings,
  format: unknown,
  formatter: AnyFormatter,
  native: boolean,
): PrepareInput & TurnSettings {
  const limit = formatter.capabilities.maxTools;
  // the provider's tool limit binds the plan: disclosure defers what it must, or throws
  const forced = forcedTool(format);
  return {
    ...turn,
    // a request that forces a tool the provider was not sent is refused: keep it loaded
    ...(forced !== undefined ? { neverDefer: [...(turn.neverDefer ?? []), forced] } : {}),
    nativeSearch: native,
    ...(limit !== undefined && turn.maxTools === undefined ? { maxTools: limit } : {}),
  };
}

/** Creates the provider-turn helpers over one disclosure layer. */
export function createProviderTurns(disclosure: Disclosure) {
  const formatterFor = createFormatterLookup();
  const formattedMemory = createFormattedMemory();

  /** Plans and formats one turn for a provider. */
  const prepareFor = <P extends ProviderId>(input: ProviderTurnInput<P>): ProviderTurn<P> => {
    const { provider, model, search, format, system, ...turn } = input;
    const formatter = formatterFor(provider, model);
    const decision = nativeSearchSupport(provider, model ?? "", search ? { override: search } : {});
    const plan = disclosure.prepare(
      providerBoundSettings(turn, format, formatter, decision.native),
    );
    const options = system === undefined ? format : { ...format, system };
    const formatted = formatter.formatTools(plan, options);
    formattedMemory.remember(`${turn.session}\u0000${provider}`, formatted);
    const types = formatted as FormattedTools<
      ProviderTypes[P]["tool"],
      ProviderTypes[P]["toolChoice"],
      ProviderTypes[P]["request"]
    >;
    return {
      provider,
      plan,
      request: types.request,
      tools: types.tools,
      ...(types.toolChoice !== undefined ? { toolChoice: types.toolChoice } : {}),
      system: formatted.system,
      mode: formatted.mode,
      searchReason: decision.reason,
      warnings: formatted.warnings,
    };
  };

  /** Parses a model response, runs every call toolsift handles, and formats the results. */
  const respond = async <P extends ProviderId>(
    input: ProviderRespondInput<P>,
  ): Promise<ProviderResponseOutcome<P>> => {
    const formatted = formattedMemory.get(`${input.session}\u0000${input.provider}`);
    if (!formatted) {
      throw new ToolsiftError(
        "invalid_option",
        `No turn was prepared for session "${input.session}" and provider "${input.provider}": call prepare({ session, provider }) before respond().`,
      );
    }
    const formatter = formatterFor(input.provider, input.model);
    const calls = formatter.parseCalls(input.response, formatted);
    const outcomes: CallOutcome[] = [];
    // the model knows tools by the names this provider was sent: toolsift's answers use them too
    const view = providerNameView(formatted.providerNames);
    const meta = disclosure.metaToolNames;
    for (const call of calls) {
      if (call.kind === "server_search") continue; // the provider already ran it
      const outcome = await disclosure.execute({
        session: input.session,
        name: call.name,
        arguments: view ? metaArguments(call.name, call.arguments, meta, view) : call.arguments,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      outcomes.push({ call, outcome: view ? shownOutcome(outcome, view) : outcome });
    }
    return {
      calls,
      outcomes,
      results: formatter.formatResults(outcomes, formatted) as ProviderTypes[P]["result"][],
      done: outcomes.length === 0,
    };
  };

  return { prepareFor, respond };
}
