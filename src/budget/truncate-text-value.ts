/** Text cuts shared by plain results and MCP text blocks, and the common outcome type. */

import type { JsonValue, ToolResult, TruncationStrategy } from "../catalog/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { shrinkJson } from "./shrink-json.js";
import type { TextAnchor } from "./truncate-text.js";
import { truncateText } from "./truncate-text.js";

/** The outcome of `truncateResult` and of every cut it makes. */
export interface Truncation<T = unknown> {
  value: T;
  truncated: boolean;
  /** Tokens the input cost; exact when `originalExact`, else estimated from a sample. */
  originalTokens: number;
  originalExact: boolean;
  /** Tokens `value` costs (exact; media blocks at `mediaTokens`). */
  tokens: number;
  /** What was cut, one line per place. Empty when nothing was. */
  notes: string[];
}

/** Whether a value is an MCP-style tool result (`{ content: [{ type, … }] }`). */
export function isToolResult(value: unknown): value is ToolResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every(
      (block) =>
        block !== null &&
        typeof block === "object" &&
        typeof (block as { type?: unknown }).type === "string",
    )
  );
}

/** The anchor a strategy uses on text and on arrays: `smart` keeps the head of JSON and both ends of prose. */
export function anchorOf(strategy: TruncationStrategy, json: boolean): TextAnchor {
  if (strategy === "smart") return json ? "head" : "head-tail";
  return strategy;
}

/** Parses text that looks like a JSON object or array; undefined otherwise. */
export function parseJsonText(text: string): JsonValue | undefined {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * Cuts a text to `maxTokens`: text holding a JSON object or array is shrunk structurally (and
 * stays valid JSON, re-serialised compactly) under `smart`; other text is cut by its anchor.
 */
export function truncateTextValue(
  text: string,
  maxTokens: number,
  strategy: TruncationStrategy,
  counter: TokenCounter,
): Truncation<string> {
  const parsed = strategy === "smart" ? parseJsonText(text) : undefined;
  if (parsed !== undefined) {
    const shrunk = shrinkJson(parsed, maxTokens, counter, "head", text);
    if (!shrunk.truncated) return { ...shrunk, value: text };
    return { ...shrunk, value: JSON.stringify(shrunk.value) };
  }
  const cut = truncateText(text, maxTokens, anchorOf(strategy, false), counter);
  const notes = cut.truncated
    ? [`text: ${cut.omittedTokens} tokens omitted (${anchorOf(strategy, false)} kept)`]
    : [];
  return {
    value: cut.text,
    truncated: cut.truncated,
    originalTokens: cut.originalTokens,
    originalExact: cut.originalExact,
    tokens: cut.tokens,
    notes,
  };
}
