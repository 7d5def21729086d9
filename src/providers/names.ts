/**
 * One reversible mapping from catalog tool names to provider tool names. Every provider name
 * matches `^[a-zA-Z0-9_-]{1,maxLength}$` (64 by default, the cross-provider safe limit), and the
 * mapping depends only on the set of tools, never on their order.
 */
import { ToolNotFoundError, ToolsiftError } from "../errors.js";
import { fnv1a32 } from "../internal/index.js";

/** A tool as the name map sees it: its catalog name and, optionally, the server it comes from. */
export interface NameMapTool {
  name: string;
  server?: string;
}

/** How provider names are built. */
export interface NameMapOptions {
  /** Longest provider name, in characters; default 64, minimum 8. */
  maxLength?: number;
  /**
   * `none` (default): the catalog name alone. `server`: every tool with a server becomes
   * `<prefix><server>__<name>`. `auto`: only tools whose bare name also occurs on another server
   * get that prefix, so unique names stay short.
   */
  namespace?: "none" | "server" | "auto";
  /** Text put before the server in namespaced names, e.g. `mcp__` for Claude Code style; default "". */
  prefix?: string;
  /** Prepend `_` when a name would start with a digit or `-` (Gemini requires a letter or `_`). */
  leadingLetter?: boolean;
  /** Extra check every final name must pass; a failure throws `invalid_option`. */
  pattern?: RegExp;
}

/** One tool and the provider name it was given. */
export interface NameMapEntry {
  name: string;
  server?: string;
  providerName: string;
}

/** A bijection between catalog tools and provider names. */
export interface NameMap {
  /**
   * The provider name of a tool. Without `server`, a tool that has no server matches first;
   * otherwise the name must be unique across servers. Unknown tools throw `tool_not_found`.
   */
  toProvider(name: string, server?: string): string;
  /** The catalog name behind a provider name, or undefined when the name is not in the map. */
  fromProvider(providerName: string): string | undefined;
  /** The whole entry (name and server) behind a provider name. */
  resolve(providerName: string): NameMapEntry | undefined;
  /** Every entry, sorted by provider name. */
  entries(): readonly NameMapEntry[];
  readonly size: number;
}

const HASH_START = 6;
const HASH_MAX = 30;
const LEGAL = /[A-Za-z0-9_-]/;

/** Replaces every character outside `[A-Za-z0-9_-]` (per code point) with `_`. */
export function sanitizeName(text: string): string {
  let result = "";
  for (const char of text) result += LEGAL.test(char) ? char : "_";
  return result;
}

/** A stable base36 hash of `text`, exactly `length` characters long. */
export function hashBase36(text: string, length: number): string {
  let result = "";
  for (let round = 0; result.length < length; round++) {
    result += fnv1a32(`${round}\u0000${text}`).toString(36).padStart(7, "0");
  }
  return result.slice(0, length);
}

interface Draft {
  entry: NameMapEntry;
  key: string;
  desired: string;
  hashed: boolean;
  hashLength: number;
}

function identityKey(tool: NameMapTool): string {
  return tool.server === undefined
    ? `\u0001${tool.name}`
    : `\u0002${tool.server}\u0000${tool.name}`;
}

function shorten(draft: Draft, maxLength: number): string {
  const hash = hashBase36(draft.key, draft.hashLength);
  return `${draft.desired.slice(0, maxLength - 1 - hash.length)}_${hash}`;
}

/**
 * Builds the name map for a set of tools. Names that are legal, short enough and unique are kept
 * as they are (after `_` replaces illegal characters); names that are too long, or that collide
 * after sanitising, all become `<readable head>_<hash of the original identity>`, with the hash
 * extended until every provider name is unique.
 * @example createNameMap(tools, { namespace: "server", prefix: "mcp__" }).toProvider("create_issue", "github")
 */
export function createNameMap(
  tools: readonly NameMapTool[],
  options: NameMapOptions = {},
): NameMap {
  const maxLength = options.maxLength ?? 64;
  if (!Number.isInteger(maxLength) || maxLength < 8) {
    throw new ToolsiftError(
      "invalid_option",
      `Name map maxLength ${maxLength} is too small; use an integer of at least 8 (64 is safe for every provider).`,
    );
  }
  const drafts = buildDrafts(tools, options);
  for (const group of groupBy(drafts, (draft) => draft.desired).values()) {
    for (const draft of group) {
      draft.hashed = group.length > 1 || draft.desired.length > maxLength;
    }
  }
  const finalNames = assignUnique(drafts, maxLength);
  const pattern = options.pattern;
  const byProvider = new Map<string, NameMapEntry>();
  const byKey = new Map<string, NameMapEntry>();
  const byName = new Map<string, NameMapEntry[]>();
  for (const draft of drafts) {
    const providerName = finalNames.get(draft) ?? draft.desired;
    if (pattern && !pattern.test(providerName)) {
      throw new ToolsiftError(
        "invalid_option",
        `Provider name "${providerName}" (tool "${draft.entry.name}") fails the pattern ${pattern}; relax the pattern or lower maxLength.`,
      );
    }
    draft.entry.providerName = providerName;
    byProvider.set(providerName, draft.entry);
    byKey.set(draft.key, draft.entry);
    byName.set(draft.entry.name, [...(byName.get(draft.entry.name) ?? []), draft.entry]);
  }
  const sorted = [...byProvider.values()].sort((a, b) => compare(a.providerName, b.providerName));
  return {
    size: sorted.length,
    toProvider(name, server) {
      if (server !== undefined) {
        const entry = byKey.get(identityKey({ name, server }));
        if (entry) return entry.providerName;
        throw new ToolNotFoundError(name, []);
      }
      // a tool without a server is the exact match; otherwise the name must be unique
      const serverless = byKey.get(identityKey({ name }));
      if (serverless) return serverless.providerName;
      const matches = byName.get(name) ?? [];
      if (matches.length === 1 && matches[0]) return matches[0].providerName;
      if (matches.length === 0) throw new ToolNotFoundError(name, []);
      throw new ToolsiftError(
        "invalid_option",
        `Tool name "${name}" exists on ${matches.length} servers (${matches.map((m) => m.server).join(", ")}); pass the server to toProvider.`,
      );
    },
    fromProvider: (providerName) => byProvider.get(providerName)?.name,
    resolve: (providerName) => byProvider.get(providerName),
    entries: () => sorted,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

function buildDrafts(tools: readonly NameMapTool[], options: NameMapOptions): Draft[] {
  const namespace = options.namespace ?? "none";
  const prefix = options.prefix ?? "";
  const seen = new Set<string>();
  const bareCounts = new Map<string, number>();
  for (const tool of tools) {
    const bare = sanitizeName(tool.name);
    bareCounts.set(bare, (bareCounts.get(bare) ?? 0) + 1);
  }
  const drafts: Draft[] = tools.map((tool, index) => {
    if (typeof tool.name !== "string" || tool.name.length === 0) {
      throw new ToolsiftError(
        "invalid_tool",
        `Tool #${index} has an empty name; give every tool a non-empty name before mapping names.`,
      );
    }
    const key = identityKey(tool);
    if (seen.has(key)) {
      const where = tool.server === undefined ? "" : ` on server "${tool.server}"`;
      throw new ToolsiftError(
        "duplicate_tool",
        `Tool "${tool.name}"${where} is listed twice; remove the duplicate before mapping names.`,
      );
    }
    seen.add(key);
    const qualify =
      tool.server !== undefined &&
      (namespace === "server" ||
        (namespace === "auto" && (bareCounts.get(sanitizeName(tool.name)) ?? 0) > 1));
    let desired = sanitizeName(qualify ? `${prefix}${tool.server}__${tool.name}` : tool.name);
    if (options.leadingLetter && !/^[A-Za-z_]/.test(desired)) desired = `_${desired}`;
    const entry: NameMapEntry = { name: tool.name, providerName: desired };
    if (tool.server !== undefined) entry.server = tool.server;
    return { entry, key, desired, hashed: false, hashLength: HASH_START };
  });
  // sorting makes every later step independent of the caller's order
  return drafts.sort((a, b) => compare(a.key, b.key));
}

function assignUnique(drafts: readonly Draft[], maxLength: number): Map<Draft, string> {
  const names = new Map<Draft, string>();
  const hashMax = Math.min(HASH_MAX, maxLength - 2);
  const current = (draft: Draft) => (draft.hashed ? shorten(draft, maxLength) : draft.desired);
  for (;;) {
    const counts = new Map<string, number>();
    for (const draft of drafts) {
      const name = current(draft);
      names.set(draft, name);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const clashing = drafts.filter(
      (draft) => draft.hashed && (counts.get(current(draft)) ?? 0) > 1,
    );
    if (clashing.length === 0) return names;
    if (clashing.some((draft) => draft.hashLength >= hashMax))
      return fallback(drafts, names, maxLength);
    for (const draft of clashing) draft.hashLength = Math.min(hashMax, draft.hashLength + 2);
  }
}

// Only reached when hashes collide at full length: number the remaining clashes in sorted order.
function fallback(drafts: readonly Draft[], names: Map<Draft, string>, maxLength: number) {
  const used = new Set<string>();
  for (const draft of drafts) if (!draft.hashed) used.add(draft.desired);
  for (const draft of drafts) {
    if (!draft.hashed) continue;
    let name = names.get(draft) ?? draft.desired;
    for (let counter = 0; used.has(name); counter++) {
      const suffix = `_${counter.toString(36)}`;
      name = `${draft.desired.slice(0, maxLength - suffix.length)}${suffix}`;
    }
    used.add(name);
    names.set(draft, name);
  }
  return names;
}
