/** `truncateResult`: cuts any tool result (text, JSON value or MCP result) to a token budget. */

import type { JsonValue, TruncationStrategy } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import type { TokenCounter } from "../tokens/index.js";
import { o200kCounter } from "../tokens/index.js";
import type { JsonCopy } from "./json-copy.js";
import { jsonCopy } from "./json-copy.js";
import { shrinkJson } from "./shrink-json.js";
import { truncateToolResult } from "./truncate-mcp.js";
import { boundUnlessOver, EXACT_COUNT_LIMIT, measureTokens } from "./truncate-text.js";
import type { Truncation } from "./truncate-text-value.js";
import { anchorOf, isToolResult, truncateTextValue } from "./truncate-text-value.js";

/** Options of `truncateResult`. */
export interface TruncateOptions {
  /** Budget in tokens; at least 1. */
  maxTokens: number;
  /** Default `smart`. On JSON values `head`/`tail`/`head-tail` act on arrays and strings inside. */
  strategy?: TruncationStrategy;
  /** Default `o200kCounter`. */
  counter?: TokenCounter;
  /** Tokens an image, audio or blob block costs; default 1,600 (a ~1.15 MP image on Claude). */
  mediaTokens?: (block: { type: string; mimeType?: string; data?: string }) => number;
}

/** Default cost of an image, audio or blob block, in tokens. */
export const DEFAULT_MEDIA_TOKENS = 1_600;

/**
 * Cuts a tool result to `maxTokens` tokens. Strings are cut as text (JSON text is shrunk
 * structurally under `smart`); MCP results keep their block structure (media kept whole or
 * replaced by a note, never cut); any other JSON value is shrunk structurally: `smart` and
 * `head` keep the first array items, `tail` the last, `head-tail` both ends. JSON stays JSON.
 * @example truncateResult(bigValue, { maxTokens: 2000 }).value
 */
export function truncateResult(result: unknown, options: TruncateOptions): Truncation {
  const { maxTokens } = options;
  if (!Number.isFinite(maxTokens) || maxTokens < 1) {
    throw new ToolsiftError(
      "invalid_option",
      `truncateResult: maxTokens must be a number ≥ 1, got ${String(maxTokens)}. Pass a positive token budget.`,
    );
  }
  const budget = Math.floor(maxTokens);
  const strategy = options.strategy ?? "smart";
  const counter = options.counter ?? o200kCounter;
  if (typeof result === "string") return truncateTextValue(result, budget, strategy, counter);
  if (isToolResult(result)) {
    const mediaTokens = options.mediaTokens ?? (() => DEFAULT_MEDIA_TOKENS);
    return truncateToolResult(result, { maxTokens: budget, strategy, counter, mediaTokens });
  }
  let text: string | undefined;
  let copied: JsonCopy | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    // circular, BigInt, a throwing toJSON or getter, or too deep: copy what can be copied, with notes
    copied = jsonCopy(result);
    text = JSON.stringify(copied.value);
  }
  if (text === undefined) return truncateTextValue(String(result), budget, strategy, counter);
  if (copied) {
    const cut = truncateResult(copied.value, options);
    return { ...cut, truncated: true, notes: [...copied.notes, ...cut.notes] };
  }
  const bound = boundUnlessOver(text, budget, counter);
  if (bound !== undefined && bound <= budget) {
    const tokens =
      text.length <= EXACT_COUNT_LIMIT
        ? counter.count(text)
        : Math.min(budget, measureTokens(text, counter, bound).tokens);
    return {
      value: result,
      truncated: false,
      originalTokens: tokens,
      originalExact: text.length <= EXACT_COUNT_LIMIT,
      tokens,
      notes: [],
    };
  }
  const value = JSON.parse(text) as JsonValue; // drops undefined, applies toJSON
  const shrunk = shrinkJson(value, budget, counter, anchorOf(strategy, true), text, bound);
  if (!shrunk.truncated) return { ...shrunk, value: result };
  // a string result is delivered as raw text, so count it the way countJson does
  const tokens = typeof shrunk.value === "string" ? counter.count(shrunk.value) : shrunk.tokens;
  return { ...shrunk, tokens };
}
