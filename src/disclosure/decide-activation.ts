import type { ResolvedSettings } from "./plan-turn.js";

const DEFAULT_TOOL_COUNT = 15;
const DEFAULT_CONTEXT_SHARE = 0.1;
/** Absolute ceiling of deferrable tokens: 10% of a 200k window, the seeds' common threshold. */
export const DEFAULT_AUTO_MAX_TOKENS = 20_000;

/** Whether disclosure is active for a turn, and why in words. */
export interface Activation {
  active: boolean;
  reason: string;
}

/** The sizes of a basis that activation looks at (tokens by the plan's counter). */
export interface ActivationInput {
  visible: number;
  deferrable: number;
  deferrableTokens: number;
  /** Tokens of every visible definition sent in full. */
  allTokens: number;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/**
 * Decides whether disclosure is active for this turn.
 *
 * `off` never activates and `on` always does when something is deferrable. `auto` activates when
 * everything loaded would exceed the definitions budget, when deferrable definitions take at
 * least `contextShare` of the context window or at least `maxTokens` tokens (default 20,000,
 * whatever the window), or when at least `toolCount` tools are visible.
 */
export function decideActivation(settings: ResolvedSettings, input: ActivationInput): Activation {
  const { visible, deferrable, deferrableTokens, allTokens } = input;
  if (settings.mode === "off")
    return { active: false, reason: "mode off: every visible tool is loaded" };
  if (deferrable === 0)
    return { active: false, reason: "no deferrable tools: every visible tool is core" };
  if (settings.mode === "on")
    return { active: true, reason: `mode on: ${deferrable} tools deferred` };
  const most = settings.maxTools;
  if (most !== undefined && visible > most) {
    return {
      active: true,
      reason: `auto: ${visible} visible tools, over the provider's limit of ${most} tools per request`,
    };
  }
  const limit = settings.definitionBudget;
  if (limit !== undefined && allTokens > limit) {
    return {
      active: true,
      reason: `auto: all definitions take ${allTokens} tokens, over the definitions budget of ${limit}`,
    };
  }
  const ceiling = settings.auto.maxTokens ?? DEFAULT_AUTO_MAX_TOKENS;
  if (deferrableTokens >= ceiling) {
    return {
      active: true,
      reason: `auto: deferrable definitions take ${deferrableTokens} tokens (ceiling ${ceiling})`,
    };
  }
  const window = settings.contextWindow;
  let { toolCount, contextShare } = settings.auto;
  if (toolCount === undefined && contextShare === undefined) {
    if (window !== undefined) contextShare = DEFAULT_CONTEXT_SHARE;
    else toolCount = DEFAULT_TOOL_COUNT;
  }
  if (contextShare !== undefined && window === undefined && toolCount === undefined) {
    toolCount = DEFAULT_TOOL_COUNT; // a share needs a window; fall back to counting tools
  }
  const reasons: string[] = [];
  if (contextShare !== undefined && window !== undefined) {
    const share = deferrableTokens / window;
    // tolerate float noise so exactly-at-threshold activates
    if (share + 1e-12 >= contextShare) {
      return {
        active: true,
        reason: `auto: deferrable definitions take ${percent(share)} of the context window (threshold ${percent(contextShare)})`,
      };
    }
    reasons.push(`${percent(share)} of the context window < ${percent(contextShare)}`);
  }
  if (toolCount !== undefined) {
    if (visible >= toolCount) {
      return { active: true, reason: `auto: ${visible} visible tools (threshold ${toolCount})` };
    }
    reasons.push(`${visible} visible tools < ${toolCount}`);
  }
  if (Number.isFinite(ceiling)) reasons.push(`${deferrableTokens} tokens < ${ceiling}`);
  return { active: false, reason: `auto: below threshold (${reasons.join("; ")})` };
}
