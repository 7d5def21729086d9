/** Turning MCP `tools/list` results and plain arrays into tool definitions. */
import { InvalidToolError, ToolsiftError } from "../errors.js";
import type { ToolDefinition } from "./types.js";
import { isPlainObject, type NameRule, validateTools } from "./validate-tools.js";

/** Options of `fromMCPToolsList`. */
export interface FromMCPToolsListOptions {
  /** Server name given to tools that do not name one. */
  server?: string;
  /** Name rule; default `strict`. */
  nameRule?: NameRule;
}

/** What a catalog document may be: a JSON array of tools, or `{ "tools": [...] }`. */
export const CATALOG_SHAPES =
  'a JSON array of tools ([{"name", "description", "inputSchema"}, ...]), an MCP tools/list result ({"tools": [...]}) or a JSON-RPC response carrying one ({"result": {"tools": [...]}})';

/**
 * Returns the raw tool entries of a catalog document (array or `{tools: [...]}`; other fields such
 * as `nextCursor` and `_meta` are ignored), or a sentence saying why the shape is wrong.
 */
export function extractToolEntries(
  document: unknown,
): { entries: readonly unknown[] } | { problem: string } {
  if (Array.isArray(document)) return { entries: document };
  if (isPlainObject(document)) {
    if (Array.isArray(document.tools)) return { entries: document.tools };
    // a whole JSON-RPC response, as saved from the wire: {"jsonrpc", "id", "result": {"tools"}}
    if (isPlainObject(document.result) && Array.isArray(document.result.tools)) {
      return { entries: document.result.tools };
    }
    const keys = Object.keys(document).slice(0, 5).join(", ");
    return {
      problem: `it is an object without a "tools" array (keys: ${keys || "none"}); expected ${CATALOG_SHAPES}`,
    };
  }
  const kind = document === null ? "null" : typeof document;
  return { problem: `its top level is ${kind}; expected ${CATALOG_SHAPES}` };
}

/** Gives entries without a `server` the default server (entries are copied, never mutated). */
export function withDefaultServer(entries: readonly unknown[], server: string | undefined) {
  if (server === undefined) return entries;
  return entries.map((entry) =>
    isPlainObject(entry) && entry.server === undefined ? { ...entry, server } : entry,
  );
}

/**
 * Converts an MCP `tools/list` result into validated tool definitions, keeping `title`,
 * `annotations` and `outputSchema` and filling `server` from the options where a tool has none.
 * Throws InvalidToolError listing every bad tool, or a ToolsiftError when the shape is wrong.
 *
 * @example
 * const tools = fromMCPToolsList(await client.listTools(), { server: "github" });
 */
export function fromMCPToolsList(
  result: unknown,
  options: FromMCPToolsListOptions = {},
): ToolDefinition[] {
  const extracted = extractToolEntries(result);
  if ("problem" in extracted) {
    throw new ToolsiftError(
      "invalid_tool",
      `Cannot read this tools/list result: ${extracted.problem}.`,
    );
  }
  const entries = withDefaultServer(extracted.entries, options.server);
  const validated = validateTools(
    entries,
    options.nameRule === undefined ? {} : { nameRule: options.nameRule },
  );
  if (validated.issues.length > 0) throw new InvalidToolError(validated.issues);
  return validated.valid;
}

/**
 * Renames tools whose name is shared by tools of different servers to `server/name` (every one of
 * them, so the outcome does not depend on load order). Same-server duplicates and entries without
 * a string `server` are left alone (validation reports them). Returns the renamed entries.
 */
export function qualifyDuplicateNames<T>(entries: readonly T[]): {
  entries: T[];
  renamed: { from: string; to: string; server: string }[];
} {
  const servers = new Map<string, Set<string>>();
  for (const entry of entries) {
    if (
      isPlainObject(entry) &&
      typeof entry.name === "string" &&
      typeof entry.server === "string"
    ) {
      const set = servers.get(entry.name) ?? new Set<string>();
      set.add(entry.server);
      servers.set(entry.name, set);
    }
  }
  const renamed: { from: string; to: string; server: string }[] = [];
  const result = entries.map((entry) => {
    if (!isPlainObject(entry) || typeof entry.name !== "string") return entry;
    if (typeof entry.server !== "string" || (servers.get(entry.name)?.size ?? 0) < 2) return entry;
    const to = `${entry.server}/${entry.name}`;
    renamed.push({ from: entry.name, to, server: entry.server });
    return { ...entry, name: to } as T;
  });
  return { entries: result, renamed };
}
