/** The tail every `formatTools` ends with: the request object and the `Formatted` around it. */
import type { TurnPlan } from "../disclosure/index.js";
import type { NameMap } from "./names.js";
import type { CallDecoder, FormattedTools } from "./types.js";
import type { ConversionWarning } from "./warnings.js";

/**
 * A request object from its fields, leaving out the ones that are `undefined`: an SDK may treat
 * `tool_choice: undefined` differently from no key, and snapshots compare keys in order.
 */
export function requestFields<T extends object>(fields: { [K in keyof T]: T[K] | undefined }): T {
  const request: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) request[key] = value;
  return request as T;
}

/** What a formatter computed for one turn; `assembleFormatted` puts it in the public shape. */
export interface FormattedInput<TTool, TChoice, TRequest> {
  plan: TurnPlan;
  mode: "native" | "client";
  tools: TTool[];
  toolChoice: TChoice | undefined;
  request: TRequest;
  names: NameMap;
  warnings: ConversionWarning[];
  decoders: ReadonlyMap<string, CallDecoder>;
  providerNames: ReadonlyMap<string, string>;
}

/** The `Formatted` result of a turn; `toolChoice` only when one was set. */
export function assembleFormatted<TTool, TChoice, TRequest>(
  input: FormattedInput<TTool, TChoice, TRequest>,
): FormattedTools<TTool, TChoice, TRequest> {
  const formatted: FormattedTools<TTool, TChoice, TRequest> = {
    tools: input.tools,
    system: input.plan.system,
    mode: input.mode,
    names: input.names,
    warnings: input.warnings,
    request: input.request,
    decoders: input.decoders,
    providerNames: input.providerNames,
  };
  if (input.toolChoice !== undefined) formatted.toolChoice = input.toolChoice;
  return formatted;
}
