/** Shared pieces of every formatter: the plan's tool groups, the name map, results as text. */
import type { ToolContent, ToolDefinition } from "../catalog/index.js";
import type { ExecuteOutcome, TurnPlan } from "../disclosure/index.js";
import { ToolsiftError } from "../errors.js";
import { capChars } from "../internal/index.js";
import { createNameMap, type NameMap, type NameMapOptions } from "./names.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";
import type { FormattedTools } from "./types.js";
import type { ConversionWarning } from "./warnings.js";

/** A plan's tools in the groups formatters treat differently. */
export interface PlanParts {
  meta: readonly ToolDefinition[];
  /** Loaded tools that are not reveals (core tools, or everything when disclosure is off). */
  core: readonly ToolDefinition[];
  /** Tools revealed to the session, in reveal order (appended at the end of `plan.loaded`). */
  revealed: readonly ToolDefinition[];
  /** Tools still deferred, sorted by name. */
  deferred: readonly ToolDefinition[];
  /** Every deferrable tool (revealed and deferred), sorted by name: a turn-stable list. */
  deferrable: readonly ToolDefinition[];
}

function byName(a: ToolDefinition, b: ToolDefinition): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Splits a plan into meta, core, revealed and deferred tools. */
export function planParts(plan: TurnPlan): PlanParts {
  const coreCount = plan.loaded.length - plan.stats.revealed;
  const core = plan.loaded.slice(0, coreCount);
  const revealed = plan.loaded.slice(coreCount);
  const deferred = plan.deferred.map((view) => view.tool);
  return {
    meta: plan.metaTools,
    core,
    revealed,
    deferred,
    deferrable: [...revealed, ...deferred].sort(byName),
  };
}

/** Caches the name map of the last tool set, so an unchanged set is not mapped again. */
export function createNameMapCache(
  capabilities: ProviderCapabilities,
): (parts: PlanParts, options: NameMapOptions | undefined) => NameMap {
  let last: { key: string; map: NameMap } | undefined;
  return (parts, options) => {
    const tools = [...parts.meta, ...parts.core, ...parts.revealed, ...parts.deferred];
    const entries = tools.map((tool) =>
      tool.server === undefined ? { name: tool.name } : { name: tool.name, server: tool.server },
    );
    const settings: NameMapOptions = {
      maxLength: Math.min(64, capabilities.maxToolNameLength),
      leadingLetter: capabilities.leadingLetterNames === true,
      ...options,
    };
    const key = JSON.stringify([
      settings.maxLength,
      settings.namespace,
      settings.prefix,
      settings.leadingLetter,
      settings.pattern?.source,
      entries.map((entry) => [entry.name, entry.server]).sort(),
    ]);
    if (last?.key !== key) last = { key, map: createNameMap(entries, settings) };
    return last.map;
  };
}

/** Remembers the last formatted request, the default context of `parseCalls` and `formatResults`. */
export function lastFormatted<T extends FormattedTools<unknown, unknown, unknown>>(
  provider: string,
): { set(value: T): T; get(given: T | undefined): T } {
  let current: T | undefined;
  return {
    set(value) {
      current = value;
      return value;
    },
    get(given) {
      const found = given ?? current;
      if (!found) {
        throw new ToolsiftError(
          "invalid_option",
          `The ${provider} formatter has not formatted a request yet; call formatTools first or pass its result.`,
        );
      }
      return found;
    },
  };
}

/** Your system prompt followed by the plan's note, when you gave one (`options.system`). */
export function joinedSystem(plan: TurnPlan, given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  return [given, plan.system].filter((text) => text !== "").join("\n\n");
}

/** Throws when a plan asks for native search on a provider that has none. */
export function requireClientPlan(plan: TurnPlan, capabilities: ProviderCapabilities): void {
  if (plan.nativeSearch && plan.active) {
    throw new ToolsiftError(
      "invalid_option",
      `${capabilities.id} has no native tool search, but the plan was prepared with nativeSearch: true; prepare with nativeSearch: false (see nativeSearchSupport).`,
    );
  }
}

/** A request-level warning (not tied to one tool's schema). */
export function requestWarning(
  code: ConversionWarning["code"],
  message: string,
  tool = "(request)",
): ConversionWarning {
  return { tool, path: "", code, message };
}

/** Warns when a request holds more tools than the provider accepts; nothing is dropped. */
export function toolLimitWarnings(
  count: number,
  capabilities: ProviderCapabilities,
): ConversionWarning[] {
  const limit = capabilities.maxTools;
  if (limit === undefined || count <= limit) return [];
  return [
    requestWarning(
      "tool_limit_exceeded",
      `${count} tools exceed ${capabilities.id}'s limit of ${limit}; the API will reject this request. Turn disclosure on (mode "on" or "auto") so most tools are deferred.`,
    ),
  ];
}

/** Cuts a description to the provider's limit, with a warning. */
export function fitDescription(
  tool: ToolDefinition,
  capabilities: ProviderCapabilities,
  warnings: ConversionWarning[],
): string {
  const limit = capabilities.maxDescriptionLength;
  if (limit === undefined || tool.description.length <= limit) return tool.description;
  warnings.push(
    requestWarning(
      "description_truncated",
      `description of ${tool.description.length} characters cut to ${limit}`,
      tool.name,
    ),
  );
  return capChars(tool.description, limit);
}

/**
 * The note that stands in for a media block a provider cannot take in a tool result. The result
 * budget costed the block as media; its base64 sent as text would cost a hundred times more.
 */
export function mediaNote(block: ToolContent, provider: string): string {
  const media = block.type === "resource" ? block.resource : block;
  const data = typeof media.data === "string" ? media.data : media.blob;
  const size = typeof data === "string" ? `, ${Math.ceil((data.length * 3) / 4 / 1024)} KB` : "";
  const mime = typeof media.mimeType === "string" ? media.mimeType : "unknown type";
  return `[${block.type} (${mime}${size}) omitted: ${provider} tool results cannot carry it]`;
}

/** Whether a block carries base64 media (an image, audio, or a resource with a `blob`). */
export function isMediaBlock(block: ToolContent): boolean {
  if (block.type === "image" || block.type === "audio") return true;
  return block.type === "resource" && typeof block.resource.blob === "string";
}

/**
 * The text of an outcome: text blocks joined; media replaced by a short note (see `mediaNote`);
 * other blocks as compact JSON.
 */
export function outcomeText(outcome: ExecuteOutcome, provider: string): string {
  const parts = outcome.content.map((block) =>
    block.type === "text"
      ? block.text
      : isMediaBlock(block)
        ? mediaNote(block, provider)
        : JSON.stringify(block),
  );
  if (parts.length === 0 && outcome.structuredContent !== undefined)
    return JSON.stringify(outcome.structuredContent);
  return parts.join("\n");
}

/** Names a search meta tool found: `structuredContent.revealed`, else every match, else `revealed`. */
export function foundNames(outcome: ExecuteOutcome): string[] {
  const structured = outcome.structuredContent;
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  if (structured && Array.isArray(structured.revealed)) return strings(structured.revealed);
  if (structured && Array.isArray(structured.matches)) {
    const names: string[] = [];
    for (const match of structured.matches as { tools?: unknown }[]) {
      for (const name of strings(match?.tools)) if (!names.includes(name)) names.push(name);
    }
    return names;
  }
  return outcome.revealed;
}

/** Parses JSON call arguments; invalid JSON is passed on as the raw string (execute reports it). */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The catalog name behind a provider name; unknown names pass through unchanged. */
export function catalogName(names: NameMap, providerName: string): string {
  return names.fromProvider(providerName) ?? providerName;
}

/** Memoises one conversion per tool object and option key (tools are immutable once planned). */
export function createConversionCache<T>(): (
  tool: ToolDefinition,
  key: string,
  build: () => T,
) => T {
  const cache = new WeakMap<ToolDefinition, Map<string, T>>();
  return (tool, key, build) => {
    let perTool = cache.get(tool);
    if (!perTool) {
      perTool = new Map();
      cache.set(tool, perTool);
    }
    let value = perTool.get(key);
    if (value === undefined) {
      value = build();
      perTool.set(key, value);
    }
    return value;
  };
}

/** Maps every catalog name in the parts to its provider name. */
export function providerNameMap(parts: PlanParts, names: NameMap): Map<string, string> {
  const result = new Map<string, string>();
  for (const group of [parts.meta, parts.core, parts.revealed, parts.deferred]) {
    for (const tool of group) result.set(tool.name, names.toProvider(tool.name, tool.server));
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps the entries of a list that are objects; anything else (null, text) carries no call. */
export function objectEntries<T>(list: unknown): T[] {
  return Array.isArray(list) ? (list.filter(isRecord) as T[]) : [];
}

/**
 * The list at `response[field]` of a model response, reduced to its object entries; throws
 * `invalid_option` naming the provider and the field when the response is not an object or
 * (unless `optional`) the field is not a list, so a wrong argument never surfaces as a TypeError.
 */
export function responseList<T>(
  response: unknown,
  field: string,
  provider: string,
  optional = false,
): T[] {
  const list = isRecord(response) ? response[field] : undefined;
  if (!isRecord(response) || (!Array.isArray(list) && !(optional && list === undefined))) {
    const got = response === null ? "null" : Array.isArray(response) ? "an array" : typeof response;
    const what = isRecord(response) ? `an object without a "${field}" list` : got;
    throw new ToolsiftError(
      "invalid_option",
      `Cannot read ${provider} tool calls: expected the response object with a "${field}" list, got ${what}. Pass the whole response the ${provider} SDK returned.`,
    );
  }
  return objectEntries<T>(list);
}

/**
 * Moves the listing of deferred tools from the search tool's description to the system note when
 * the description would pass the provider's length limit (OpenAI: 1,024 characters), so the
 * listing reaches the model whole instead of being cut. Other plans are returned unchanged.
 */
export function placeListing(plan: TurnPlan, capabilities: ProviderCapabilities): TurnPlan {
  const limit = capabilities.maxDescriptionLength;
  const listing = plan.listing;
  if (limit === undefined || !listing) return plan;
  const suffix = `\n\n${listing}`;
  let moved = false;
  const metaTools = plan.metaTools.map((tool) => {
    if (tool.description.length <= limit || !tool.description.endsWith(suffix)) return tool;
    moved = true;
    return { ...tool, description: tool.description.slice(0, -suffix.length) };
  });
  if (!moved) return plan;
  return { ...plan, metaTools, system: plan.system ? `${plan.system}\n\n${listing}` : listing };
}
