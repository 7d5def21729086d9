/**
 * Budget cuts for MCP results. Text blocks are cut (JSON text structurally); images, audio and
 * embedded resources are atomic: kept whole or replaced in place by a note such as
 * `[image image/png 120 kB omitted]`; resource links are always kept; `isError` is kept;
 * `structuredContent` is shrunk structurally or dropped with a note.
 */

import type { JsonValue, ToolContent, ToolResult, TruncationStrategy } from "../catalog/index.js";
import { capChars } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { jsonCopy } from "./json-copy.js";
import { shrinkJson } from "./shrink-json.js";
import { EXACT_COUNT_LIMIT, measureTokens } from "./truncate-text.js";
import type { Truncation } from "./truncate-text-value.js";
import { truncateTextValue } from "./truncate-text-value.js";

/** Options for cutting an MCP result; see `TruncateOptions`. */
export interface ToolResultCutOptions {
  maxTokens: number;
  strategy: TruncationStrategy;
  counter: TokenCounter;
  mediaTokens: (block: { type: string; mimeType?: string; data?: string }) => number;
}

const MIN_STRUCTURED_SHARE = 24;

type Part =
  | { kind: "text"; block: ToolContent & { type: "text" }; tokens: number; exact: boolean }
  | { kind: "atomic"; block: ToolContent; tokens: number; label: string }
  | { kind: "link"; block: ToolContent; tokens: number; label: string };

function describeAtomic(block: ToolContent): string {
  const data =
    typeof block.data === "string"
      ? block.data
      : ((block.resource as { blob?: unknown; text?: unknown } | undefined)?.blob ?? "");
  const bytes = typeof data === "string" ? Math.floor((data.length * 3) / 4) : 0;
  const size = bytes >= 1024 ? `${Math.round(bytes / 1024)} kB` : `${bytes} B`;
  if (block.type === "resource") {
    const resource = block.resource as { uri?: string; mimeType?: string; text?: string };
    const text = typeof resource.text === "string" ? `${resource.text.length} chars` : size;
    return `resource ${resource.uri ?? ""} ${text}`.replace(/\s+/g, " ");
  }
  return `${block.type} ${String(block.mimeType ?? "")} ${size}`;
}

function partsOf(result: ToolResult, options: ToolResultCutOptions): Part[] {
  const { counter } = options;
  return result.content.map((block): Part => {
    if (block.type === "text" && typeof block.text === "string") {
      const measured = measureTokens(block.text, counter);
      return { kind: "text", block, tokens: measured.tokens, exact: measured.exact };
    }
    if (block.type === "image" || block.type === "audio") {
      return {
        kind: "atomic",
        block,
        tokens: options.mediaTokens(block),
        label: describeAtomic(block),
      };
    }
    if (block.type === "resource") {
      const resource = block.resource as { text?: unknown; mimeType?: string };
      const tokens =
        typeof resource.text === "string"
          ? counter.count(resource.text)
          : options.mediaTokens({
              type: "resource",
              ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
            });
      return { kind: "atomic", block, tokens, label: describeAtomic(block) };
    }
    // resource links and block types toolsift does not know are sent as their JSON
    const text = blockJson(block);
    const label =
      typeof block.uri === "string"
        ? `${block.type} ${capChars(block.uri, 120)}`
        : `${capChars(block.type, 40)} block`;
    return { kind: "link", block, tokens: measureTokens(text, counter).tokens, label };
  });
}

/** JSON text of a block, also for blocks JSON.stringify throws on (cycles, BigInts, toJSON). */
function blockJson(block: ToolContent): string {
  try {
    return JSON.stringify(block);
  } catch {
    return JSON.stringify(jsonCopy(block).value) ?? "";
  }
}

function blockTokens(block: ToolContent, options: ToolResultCutOptions): number {
  if (block.type === "text") return options.counter.count(block.text);
  return partsOf({ content: [block] }, options)[0]?.tokens ?? 0;
}

/** Tokens an MCP result costs: text and link blocks counted, media at `mediaTokens`, plus structuredContent. */
export function toolResultTokens(result: ToolResult, options: ToolResultCutOptions): number {
  let total = 0;
  for (const block of result.content) total += blockTokens(block, options);
  if (result.structuredContent !== undefined) {
    total += options.counter.count(JSON.stringify(result.structuredContent));
  }
  return total;
}

/**
 * The common result, a few short text blocks that fit: counted exactly, block by block, as the
 * full path would count them, without its per-block bookkeeping (a relayed call pays that on
 * every call, and a fresh gateway runs it before V8 has optimised it). Undefined for anything
 * else, which takes the full path.
 */
function fittingText(
  result: ToolResult,
  options: ToolResultCutOptions,
): Truncation<ToolResult> | undefined {
  if (result.structuredContent !== undefined) return undefined;
  let tokens = 0;
  for (const block of result.content) {
    const { text } = block;
    if (block.type !== "text" || typeof text !== "string" || text.length > EXACT_COUNT_LIMIT) {
      return undefined;
    }
    tokens += blockTokens(block, options);
    if (tokens > options.maxTokens) return undefined;
  }
  return {
    value: result,
    truncated: false,
    originalTokens: tokens,
    originalExact: true,
    tokens,
    notes: [],
  };
}

/** Cuts an MCP result to `maxTokens`; see the file comment for the rules. */
export function truncateToolResult(
  result: ToolResult,
  options: ToolResultCutOptions,
): Truncation<ToolResult> {
  const fitting = fittingText(result, options);
  if (fitting) return fitting;
  const { counter, maxTokens } = options;
  const parts = partsOf(result, options);
  const structuredText =
    result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  const structured =
    structuredText === undefined ? undefined : measureTokens(structuredText, counter);
  const originalTokens =
    parts.reduce((sum, part) => sum + part.tokens, 0) + (structured?.tokens ?? 0);
  const originalExact =
    parts.every((part) => part.kind !== "text" || part.exact) && (structured?.exact ?? true);
  if (originalTokens <= maxTokens && originalExact) {
    return {
      value: result,
      truncated: false,
      originalTokens,
      originalExact,
      tokens: originalTokens,
      notes: [],
    };
  }
  const notes: string[] = [];
  const hasText = parts.some((part) => part.kind === "text") || structured !== undefined;
  // links are kept whole while small; one that alone takes over a quarter of the budget (a huge
  // unknown block) becomes a note like media, instead of pushing every other block out
  const keptLinks = new Set(
    parts.filter((part) => part.kind === "link" && part.tokens <= Math.floor(maxTokens / 4)),
  );
  let room = maxTokens - [...keptLinks].reduce((sum, part) => sum + part.tokens, 0);
  // atomic blocks may take half the budget when text needs the rest, all of it otherwise
  let atomicRoom = hasText ? Math.floor(room / 2) : room;
  const content: ToolContent[] = [];
  const textSlots: { index: number; part: Part & { kind: "text" } }[] = [];
  for (const part of parts) {
    if (part.kind === "link" && !keptLinks.has(part)) {
      const text = `[${part.label} omitted]`;
      notes.push(`content: ${part.label} omitted (${part.tokens} tokens)`);
      content.push({ type: "text", text });
      room -= counter.count(text);
    } else if (part.kind === "atomic") {
      if (part.tokens <= atomicRoom) {
        content.push(part.block);
        atomicRoom -= part.tokens;
        room -= part.tokens;
      } else {
        const text = `[${part.label} omitted]`;
        notes.push(`content: ${part.label} omitted (${part.tokens} tokens)`);
        content.push({ type: "text", text });
        room -= counter.count(text);
      }
    } else if (part.kind === "text") {
      textSlots.push({ index: content.length, part });
      content.push(part.block);
    } else content.push(part.block);
  }
  return cutTexts(
    result,
    { content, textSlots, structured, structuredText, room, notes, originalTokens, originalExact },
    options,
  );
}

interface CutPlan {
  content: ToolContent[];
  textSlots: { index: number; part: Part & { kind: "text" } }[];
  structured: { tokens: number } | undefined;
  structuredText: string | undefined;
  room: number;
  notes: string[];
  originalTokens: number;
  originalExact: boolean;
}

function cutTexts(
  result: ToolResult,
  plan: CutPlan,
  options: ToolResultCutOptions,
): Truncation<ToolResult> {
  const { counter, maxTokens } = options;
  const textTotal =
    plan.textSlots.reduce((sum, slot) => sum + slot.part.tokens, 0) +
    (plan.structured?.tokens ?? 0);
  let room = plan.room;
  // parsed once: a large structuredContent is not re-read on every attempt
  const structuredValue =
    plan.structuredText === undefined ? undefined : (JSON.parse(plan.structuredText) as JsonValue);
  for (let attempt = 0; attempt < 6; attempt++) {
    const notes = [...plan.notes];
    let used = maxTokens - plan.room;
    // when proportional shares would leave blocks too small to say anything (5,000 short
    // blocks), whole blocks are kept from the head instead, and one note names what is left out
    const cut =
      plan.textSlots.length * MIN_TEXT_SHARE > room
        ? keepHeadBlocks(
            plan,
            room - Math.floor((room * (plan.structured?.tokens ?? 0)) / Math.max(1, textTotal)),
            options,
          )
        : shareAmongBlocks(plan, room, textTotal, options);
    notes.push(...cut.notes);
    used += cut.tokens;
    const content = cut.content;
    const output: ToolResult = { ...result, content };
    if (plan.structured && structuredValue !== undefined && plan.structuredText !== undefined) {
      const share = Math.floor((room * plan.structured.tokens) / Math.max(1, textTotal));
      const value = structuredValue;
      const shrunk =
        share >= MIN_STRUCTURED_SHARE
          ? shrinkJson(value, share, counter, "head", plan.structuredText)
          : undefined;
      if (
        shrunk &&
        shrunk.value !== null &&
        typeof shrunk.value === "object" &&
        !Array.isArray(shrunk.value)
      ) {
        output.structuredContent = shrunk.value;
        notes.push(...shrunk.notes.map((line) => `structuredContent ${line}`));
        used += shrunk.tokens;
      } else {
        delete output.structuredContent;
        notes.push(
          `structuredContent dropped (${plan.structured.tokens} tokens); the text content carries the result`,
        );
      }
    }
    if (used <= maxTokens && fitsTotal(output, maxTokens, options)) {
      return {
        value: output,
        truncated: true,
        originalTokens: plan.originalTokens,
        originalExact: plan.originalExact,
        tokens: used,
        notes,
      };
    }
    room -= Math.max(1, used - maxTokens, Math.floor(room / 8));
    if (room < 1) break;
  }
  return minimalResult(result, plan, options);
}

const MIN_TEXT_SHARE = 24; // fewest tokens a cut text block gets before whole blocks are kept instead

interface TextCutOutcome {
  content: ToolContent[];
  tokens: number;
  notes: string[];
}

/** Cuts every text block to its share of `room`, in proportion to its size. */
function shareAmongBlocks(
  plan: CutPlan,
  room: number,
  textTotal: number,
  options: ToolResultCutOptions,
): TextCutOutcome {
  const content = [...plan.content];
  const notes: string[] = [];
  let tokens = 0;
  for (const slot of plan.textSlots) {
    const share = Math.max(1, Math.floor((room * slot.part.tokens) / Math.max(1, textTotal)));
    const cut = truncateTextValue(slot.part.block.text, share, options.strategy, options.counter);
    content[slot.index] = { ...slot.part.block, text: cut.value };
    notes.push(...cut.notes.map((line) => `content[${slot.index}] ${line}`));
    tokens += cut.tokens;
  }
  return { content, tokens, notes };
}

/**
 * Keeps text blocks whole from the first one while they fit in `room` (the first that does not
 * is cut when it would still get MIN_TEXT_SHARE tokens), drops the rest and puts one note where
 * the first dropped block was, saying how many blocks and about how many tokens were left out.
 */
function keepHeadBlocks(
  plan: CutPlan,
  room: number,
  options: ToolResultCutOptions,
): TextCutOutcome {
  const { counter } = options;
  const dropped = new Set<number>();
  const content = [...plan.content];
  const notes: string[] = [];
  let left = room - 24; // the note's own cost
  let tokens = 0;
  let omittedTokens = 0;
  for (const slot of plan.textSlots) {
    const { part } = slot;
    if (dropped.size === 0 && part.exact && part.tokens <= left) {
      left -= part.tokens;
      tokens += part.tokens;
      continue;
    }
    if (dropped.size === 0 && left >= MIN_TEXT_SHARE) {
      const cut = truncateTextValue(part.block.text, left, options.strategy, counter);
      content[slot.index] = { ...part.block, text: cut.value };
      notes.push(...cut.notes.map((line) => `content[${slot.index}] ${line}`));
      tokens += cut.tokens;
      left = 0;
      continue;
    }
    dropped.add(slot.index);
    omittedTokens += part.tokens;
  }
  if (dropped.size === 0) return { content, tokens, notes };
  const first = Math.min(...dropped);
  const text = `[… ${dropped.size} more text blocks omitted (about ${omittedTokens} tokens) …]`;
  notes.push(
    `content: ${dropped.size} text blocks from content[${first}] omitted (${omittedTokens} tokens)`,
  );
  const kept: ToolContent[] = [];
  content.forEach((block, index) => {
    if (index === first) kept.push({ type: "text", text });
    else if (!dropped.has(index)) kept.push(block);
  });
  return { content: kept, tokens: tokens + counter.count(text), notes };
}

function fitsTotal(output: ToolResult, maxTokens: number, options: ToolResultCutOptions): boolean {
  return toolResultTokens(output, options) <= maxTokens;
}

/** Last resort for tiny budgets: one short text block (isError kept). */
function minimalResult(
  result: ToolResult,
  plan: CutPlan,
  options: ToolResultCutOptions,
): Truncation<ToolResult> {
  const marker = `[… result of ${plan.originalTokens} tokens omitted …]`;
  for (const text of [marker, "[… truncated …]", "[…]", "…", ""]) {
    const tokens = options.counter.count(text);
    if (tokens <= options.maxTokens) {
      const value: ToolResult = { content: [{ type: "text", text }] };
      if (result.isError !== undefined) value.isError = result.isError;
      return {
        value,
        truncated: true,
        originalTokens: plan.originalTokens,
        originalExact: plan.originalExact,
        tokens,
        notes: [...plan.notes, "content: every block replaced by a marker (budget too small)"],
      };
    }
  }
  return {
    value: { content: [] },
    truncated: true,
    originalTokens: plan.originalTokens,
    originalExact: plan.originalExact,
    tokens: 0,
    notes: ["content: emptied"],
  };
}
