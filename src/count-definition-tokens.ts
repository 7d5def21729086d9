/**
 * The token figures every cost view shows (`toolsift report`, the inspector, the demo): what the
 * tool definitions of one provider turn take, beside what they would take with every tool loaded.
 * One place, so the three never disagree on a number again.
 */
import type { ToolSift } from "./create-toolsift.js";
import type { ProviderTurnInput } from "./provider-turns.js";
import type { ProviderId } from "./providers/index.js";

/** Tool-definition tokens of one provider turn, counted with the instance's token counter. */
export interface DefinitionTokens {
  provider: ProviderId;
  /** Native (the provider's own tool search) or client-side (toolsift's search tool). */
  search: "native" | "client";
  /** What this turn adds to the context: the tools that enter it (natively deferred tools do
   * not until found) plus toolsift's system note. After reveals, it includes the revealed tools. */
  turn: number;
  /** Every visible tool loaded, in this provider's format, past its tool limit: the figure to
   * compare with. Counted when first read (a format of the whole catalog: seconds at 1k tools). */
  readonly all: number;
}

/**
 * Counts the tool-definition tokens of the turn `input` prepares, and of the same request with
 * every visible tool loaded. Both count the provider's request JSON as sent.
 *
 * @example
 * const { all, turn } = countDefinitionTokens(sift, { session: "s", provider: "gemini" });
 */
export function countDefinitionTokens(sift: ToolSift, input: ProviderTurnInput): DefinitionTokens {
  const count = (value: unknown) => sift.tokenCounter.count(JSON.stringify(value));
  const prepared = sift.prepare(input);
  // natively deferred definitions stay out of the context until the provider's search finds them
  const tools =
    prepared.mode === "native" ? prepared.plan.stats.loadedTokens : count(prepared.tools);
  const turn = tools + (prepared.system ? sift.tokenCounter.count(prepared.system) : 0);
  let all: number | undefined;
  const result = { provider: input.provider, search: prepared.mode, turn } as DefinitionTokens;
  Object.defineProperty(result, "all", {
    enumerable: true,
    get() {
      all ??= count(
        sift.prepare({
          session: input.session,
          provider: input.provider,
          search: "client",
          mode: "off",
          maxTools: Number.MAX_SAFE_INTEGER,
          ...(input.format !== undefined ? { format: input.format } : {}),
        }).tools,
      );
      return all;
    },
  });
  return result;
}
