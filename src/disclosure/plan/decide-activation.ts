import type { ResolvedSettings } from "./resolved-settings.js";
import type { TokenTally } from "./token-tally.js";

const DEFAULT_TOOL_COUNT = 15;
const DEFAULT_CONTEXT_SHARE = 0.1;
/** Absolute ceiling of deferrable tokens: 10% of a 200k window, the seeds' common threshold. */
export const DEFAULT_AUTO_MAX_TOKENS = 20_000;

/** Whether disclosure is active for a turn, and why in words (built on first read: the words
 * quote exact token totals, which activation itself counts only as far as its thresholds). */
export interface Activation {
  active: boolean;
  reason: () => string;
}

/** The sizes of a basis that activation looks at (tokens by the plan's counter). */
export interface ActivationInput {
  visible: number;
  deferrable: number;
  /** Tokens of the deferrable definitions. */
  deferrableTokens: TokenTally;
  /** Tokens of the core definitions (with the deferrable ones: every visible definition). */
  coreTokens: TokenTally;
}

function fixed(reason: string): () => string {
  return () => reason;
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/** The `auto` ceiling of deferrable tokens, whatever the window. */
function autoCeiling(settings: ResolvedSettings): number {
  return settings.auto.maxTokens ?? DEFAULT_AUTO_MAX_TOKENS;
}

/** `off`, `on`, or nothing to defer decide without counting anything; undefined for `auto`. */
function modeActivation(
  settings: ResolvedSettings,
  input: ActivationInput,
): Activation | undefined {
  const { deferrable } = input;
  if (settings.mode === "off")
    return { active: false, reason: fixed("mode off: every visible tool is loaded") };
  if (deferrable === 0) {
    if (settings.mode === "on" && settings.keepMetaTools && !settings.nativeSearch) {
      return { active: true, reason: fixed("mode on, keepMetaTools: nothing deferrable yet") };
    }
    return { active: false, reason: fixed("no deferrable tools: every visible tool is core") };
  }
  if (settings.mode === "on")
    return { active: true, reason: fixed(`mode on: ${deferrable} tools deferred`) };
  return undefined;
}

/** `auto` over a hard limit: the provider's tool count, the definitions budget, or the ceiling of
 * deferrable tokens. Undefined when within all three. */
function overLimitActivation(
  settings: ResolvedSettings,
  input: ActivationInput,
): Activation | undefined {
  const { visible } = input;
  const deferrableTokens = () => input.deferrableTokens.exact();
  const most = settings.maxTools;
  if (most !== undefined && visible > most) {
    return {
      active: true,
      reason: fixed(
        `auto: ${visible} visible tools, over the provider's limit of ${most} tools per request`,
      ),
    };
  }
  const limit = settings.definitionBudget;
  if (limit !== undefined) {
    const core = input.coreTokens.until(limit);
    if (core > limit || core + input.deferrableTokens.until(limit - core) > limit) {
      return {
        active: true,
        reason: () =>
          `auto: all definitions take ${input.coreTokens.exact() + deferrableTokens()} tokens, over the definitions budget of ${limit}`,
      };
    }
  }
  const ceiling = autoCeiling(settings);
  // `until(cap)` is exact up to cap and above cap past it, so it answers `>= ceiling`
  if (Number.isFinite(ceiling) && input.deferrableTokens.until(ceiling) >= ceiling) {
    return {
      active: true,
      reason: () =>
        `auto: deferrable definitions take ${deferrableTokens()} tokens (ceiling ${ceiling})`,
    };
  }
  return undefined;
}

/** The `auto` thresholds that apply: a context share needs a window, so without one (or when
 * neither is set) the tool count decides. */
function autoThresholds(settings: ResolvedSettings): {
  toolCount: number | undefined;
  contextShare: number | undefined;
} {
  const window = settings.contextWindow;
  let { toolCount, contextShare } = settings.auto;
  if (toolCount === undefined && contextShare === undefined) {
    if (window !== undefined) contextShare = DEFAULT_CONTEXT_SHARE;
    else toolCount = DEFAULT_TOOL_COUNT;
  }
  if (contextShare !== undefined && window === undefined && toolCount === undefined) {
    toolCount = DEFAULT_TOOL_COUNT; // a share needs a window; fall back to counting tools
  }
  return { toolCount, contextShare };
}

/** `auto` by its thresholds: the share of the context window, then the visible tool count; when
 * below both, the reason lists every threshold that was checked. */
function thresholdActivation(settings: ResolvedSettings, input: ActivationInput): Activation {
  const { visible } = input;
  const deferrableTokens = () => input.deferrableTokens.exact();
  const window = settings.contextWindow;
  const { toolCount, contextShare } = autoThresholds(settings);
  const reasons: string[] = [];
  if (contextShare !== undefined && window !== undefined) {
    // counted one past the threshold's token figure: enough to decide, exact when below it
    const counted = input.deferrableTokens.until(Math.ceil(contextShare * window) + 1);
    const share = counted / window;
    // tolerate float noise so exactly-at-threshold activates
    if (share + 1e-12 >= contextShare) {
      return {
        active: true,
        reason: () =>
          `auto: deferrable definitions take ${percent(deferrableTokens() / window)} of the context window (threshold ${percent(contextShare)})`,
      };
    }
    reasons.push(`${percent(share)} of the context window < ${percent(contextShare)}`);
  }
  if (toolCount !== undefined) {
    if (visible >= toolCount) {
      return {
        active: true,
        reason: fixed(`auto: ${visible} visible tools (threshold ${toolCount})`),
      };
    }
    reasons.push(`${visible} visible tools < ${toolCount}`);
  }
  const ceiling = autoCeiling(settings);
  return {
    active: false,
    reason: () => {
      // below every threshold that was checked; the ceiling's figure is exact when read
      const below = [...reasons];
      if (Number.isFinite(ceiling)) below.push(`${deferrableTokens()} tokens < ${ceiling}`);
      return `auto: below threshold (${below.join("; ")})`;
    },
  };
}

/**
 * Decides whether disclosure is active for this turn.
 *
 * `off` never activates and `on` always does when something is deferrable (or, with
 * `keepMetaTools`, when nothing is yet). `auto` activates when everything loaded would exceed the definitions budget, when deferrable definitions take at
 * least `contextShare` of the context window or at least `maxTokens` tokens (default 20,000,
 * whatever the window), or when at least `toolCount` tools are visible.
 */
export function decideActivation(settings: ResolvedSettings, input: ActivationInput): Activation {
  return (
    modeActivation(settings, input) ??
    overLimitActivation(settings, input) ??
    thresholdActivation(settings, input)
  );
}
