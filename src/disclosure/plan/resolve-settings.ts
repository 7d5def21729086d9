import { ToolsiftError } from "../../errors.js";
import { MAX_LIMIT } from "../../search/index.js";
import { DEFAULT_META_TOOL_NAMES } from "../meta/meta-tools.js";
import type {
  DirectoryOptions,
  DisclosureOptions,
  ListingOptions,
  TurnSettings,
} from "../types.js";
import type { ResolvedSettings } from "./resolved-settings.js";

function fail(option: string, value: unknown, fix: string): never {
  throw new ToolsiftError(
    "invalid_option",
    `Disclosure option ${option} is invalid (${JSON.stringify(value)}): ${fix}.`,
  );
}

function checkPositive(option: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    fail(option, value, `use a positive ${integer ? "integer" : "number"}`);
  }
}

/** Throws `invalid_option` unless a handler time limit is a positive number of milliseconds
 * (`Infinity` means no limit). */
export function checkTimeout(value: number | undefined): void {
  if (value !== undefined && !(value > 0)) {
    fail("timeoutMs", value, "use a positive number of milliseconds, or Infinity for no limit");
  }
}

function checkRange(option: string, value: number, low: number, high: number): void {
  if (!(Number.isInteger(value) && value >= low && value <= high)) {
    fail(option, value, `use a whole number from ${low} to ${high}`);
  }
}

// names every provider accepts (OpenAI and Anthropic: 1-64 of letters, digits, _ and -)
const LEGAL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Fewest tokens a search or describe response may be given: its notes and footer need room. */
export const MIN_RESPONSE_TOKENS = 100;

/**
 * Throws `invalid_option` for creation-only options the engine could not honour: meta tool names
 * no provider accepts, response budgets too small to hold an answer, a `neverDefer` that is not
 * a list of names. Turn settings are checked by `resolveSettings` on every turn.
 */
export function checkCreationOptions(options: DisclosureOptions): void {
  for (const [key, name] of Object.entries(options.metaToolNames ?? {})) {
    if (typeof name !== "string" || !LEGAL_NAME.test(name)) {
      fail(
        `metaToolNames.${key}`,
        name,
        "use 1-64 letters, digits, _ or - (what every provider accepts)",
      );
    }
  }
  for (const option of ["searchResponseTokens", "describeResponseTokens"] as const) {
    const value = options[option];
    if (value !== undefined) checkRange(option, value, MIN_RESPONSE_TOKENS, 1_000_000);
  }
  for (const kind of ["before", "after"] as const) {
    const hooks: unknown = options.hooks?.[kind];
    if (
      hooks !== undefined &&
      !(Array.isArray(hooks) && hooks.every((hook) => typeof hook === "function"))
    ) {
      fail(`hooks.${kind}`, typeof hooks, "pass a list of functions");
    }
  }
  for (const option of ["countTokens", "onWarning"] as const) {
    if (options[option] !== undefined && typeof options[option] !== "function") {
      fail(option, typeof options[option], "pass a function");
    }
  }
  const store: unknown = options.store;
  if (
    store !== undefined &&
    !["reveal", "revealed", "version"].every(
      (method) => typeof (store as Record<string, unknown> | null)?.[method] === "function",
    )
  ) {
    fail("store", typeof store, "pass a RevealStore (reveal, revealed and version methods)");
  }
  if (
    options.sanitizeDescription !== undefined &&
    typeof options.sanitizeDescription !== "function"
  ) {
    fail(
      "sanitizeDescription",
      typeof options.sanitizeDescription,
      "pass a function (text, tool) => string",
    );
  }
}

function directoryOf(value: TurnSettings["directory"]): DirectoryOptions | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return {};
  checkPositive("directory.maxTokens", value.maxTokens, true);
  checkPositive("directory.words", value.words, true);
  return value;
}

function listingOf(value: TurnSettings["listing"]): ListingOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  checkPositive("listing.maxTokens", value.maxTokens, true);
  checkPositive("listing.summaryChars", value.summaryChars, true);
  return value;
}

/**
 * Applies defaults (`auto`, `reveal`, no listing, search limit 5 of at most 10) and turn
 * overrides over the creation options; throws `invalid_option` naming a bad value and the fix.
 */
export function resolveSettings(options: DisclosureOptions, turn: TurnSettings): ResolvedSettings {
  const mode = turn.mode ?? options.mode ?? "auto";
  if (mode !== "off" && mode !== "on" && mode !== "auto")
    fail("mode", mode, 'use "off", "on" or "auto"');
  const strategy = turn.strategy ?? options.strategy ?? "reveal";
  if (strategy !== "reveal" && strategy !== "bridge")
    fail("strategy", strategy, 'use "reveal" or "bridge"');
  const auto = turn.auto ?? options.auto ?? {};
  if (auto.toolCount !== undefined && !(Number.isInteger(auto.toolCount) && auto.toolCount >= 0)) {
    fail("auto.toolCount", auto.toolCount, "use a whole number of tools, 0 or more");
  }
  if (auto.contextShare !== undefined && !(auto.contextShare > 0 && auto.contextShare <= 1)) {
    fail("auto.contextShare", auto.contextShare, "use a share between 0 and 1, e.g. 0.1 for 10%");
  }
  if (
    auto.maxTokens !== undefined &&
    auto.maxTokens !== Number.POSITIVE_INFINITY &&
    !(Number.isInteger(auto.maxTokens) && auto.maxTokens > 0)
  ) {
    fail(
      "auto.maxTokens",
      auto.maxTokens,
      "use a positive whole number of tokens, or Infinity for no ceiling",
    );
  }
  const neverDefer = turn.neverDefer ?? options.neverDefer;
  if (
    neverDefer !== undefined &&
    !(Array.isArray(neverDefer) && neverDefer.every((name) => typeof name === "string"))
  ) {
    fail("neverDefer", neverDefer, "use a list of tool names or globs");
  }
  const contextWindow = turn.contextWindow ?? options.contextWindow;
  checkPositive("contextWindow", contextWindow, true);
  const defaultLimit = options.searchLimit?.default ?? 5;
  const maxLimit = options.searchLimit?.max ?? Math.max(10, defaultLimit);
  // the search engine answers at most MAX_LIMIT hits per query: never offer the model more
  checkRange("searchLimit.default", defaultLimit, 1, MAX_LIMIT);
  checkRange("searchLimit.max", maxLimit, 1, MAX_LIMIT);
  if (defaultLimit > maxLimit)
    fail("searchLimit.default", defaultLimit, `keep it at most searchLimit.max (${maxLimit})`);
  const definitionBudget = turn.definitionBudget ?? options.definitionBudget;
  checkPositive("definitionBudget", definitionBudget, true);
  const maxTools = turn.maxTools ?? options.maxTools;
  checkPositive("maxTools", maxTools, true);
  checkTimeout(options.timeoutMs);
  const names = { ...DEFAULT_META_TOOL_NAMES, ...options.metaToolNames };
  if (new Set([names.search, names.describe, names.call]).size !== 3) {
    fail("metaToolNames", names, "give the three meta tools distinct names");
  }
  return {
    mode,
    strategy,
    auto,
    listing: listingOf(turn.listing ?? options.listing),
    directory: directoryOf(turn.directory ?? options.directory),
    contextWindow,
    nativeSearch: turn.nativeSearch ?? options.nativeSearch ?? false,
    keepMetaTools: turn.keepMetaTools ?? options.keepMetaTools ?? false,
    names,
    defaultLimit,
    maxLimit,
    definitionBudget,
    maxTools,
  };
}
