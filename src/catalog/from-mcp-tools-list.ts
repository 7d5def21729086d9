/** Turning MCP `tools/list` results and plain arrays into tool definitions. */
import { InvalidToolError, ToolsiftError } from "../errors.js";
import type { ToolDefinition } from "./types.js";
import { isPlainObject, type NameRule, validateTools } from "./validate-tools.js";
import { type SourceOptions, toHostEntry } from "./wire-entry.js";

/** Options of `fromMCPToolsList`: where `server` and the control fields come from (see
 * `SourceOptions`; by default only MCP fields are read from the payload) and the name rule. */
export interface FromMCPToolsListOptions extends SourceOptions {
  /** Name rule; default `strict`. */
  nameRule?: NameRule;
}

/** What a catalog document may be: a JSON array of tools, `{ "tools": [...] }`, or a JSON-RPC
 * response carrying that result. */
export const CATALOG_SHAPES =
  'a JSON array of tools ([{"name", "description", "inputSchema"}, ...]), an MCP tools/list result ({"tools": [...]}) or a JSON-RPC response ({"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}})';

/**
 * Returns the raw tool entries of a catalog document (array, `{tools: [...]}` or a JSON-RPC
 * response whose `result` is one; other fields such as `nextCursor` and `_meta` are ignored), or
 * a sentence saying why the shape is wrong.
 */
export function extractToolEntries(
  document: unknown,
): { entries: readonly unknown[] } | { problem: string } {
  if (Array.isArray(document)) return { entries: document };
  if (isPlainObject(document)) {
    if (Array.isArray(document.tools)) return { entries: document.tools };
    if (isPlainObject(document.result) && Array.isArray(document.result.tools)) {
      return { entries: document.result.tools };
    }
    if (isPlainObject(document.error)) {
      const message = String(document.error.message ?? "no message");
      return {
        problem: `it is a JSON-RPC error response (${message}), not a tools/list result; fix the server call and save its result`,
      };
    }
    const keys = Object.keys(document).slice(0, 5).join(", ");
    return {
      problem: `it is an object without a "tools" array (keys: ${keys || "none"}); expected ${CATALOG_SHAPES}`,
    };
  }
  const kind = document === null ? "null" : typeof document;
  return { problem: `its top level is ${kind}; expected ${CATALOG_SHAPES}` };
}

/**
 * Converts an MCP `tools/list` result (bare, or inside a JSON-RPC response) into validated tool
 * definitions. Only MCP fields are read from the payload (`name`, `title`, `description`,
 * `inputSchema`, `outputSchema`, `annotations`): `server` comes from the options (the connection;
 * `"mcp"` when not given, so the tools keep their MCP origin) and toolsift's control fields (`tags`, `defer`, `maxResultTokens`, …) from `control`, so a
 * server cannot pin, re-tag or re-budget its own tools. Tools are deferrable unless `control`
 * marks them `core`. Throws InvalidToolError listing every bad tool, or a ToolsiftError when the
 * shape is wrong.
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
  const entries = extracted.entries.map((entry) => toHostEntry(entry, options));
  const validated = validateTools(
    entries,
    options.nameRule === undefined ? {} : { nameRule: options.nameRule },
  );
  if (validated.issues.length > 0) throw new InvalidToolError(validated.issues);
  return validated.valid;
}

/** A tool renamed to `server/name` because another server has a tool of the same name. */
export interface RenamedTool {
  from: string;
  to: string;
  server: string;
}

/**
 * Renames tools whose name is shared by tools of different servers to `server/name` (every one of
 * them, so the outcome does not depend on load order). A tool whose literal name equals one of
 * those qualified names is qualified with its own server too, so a literal name can never shadow
 * a qualified one. Same-server duplicates and entries without a string `server` are left alone
 * (validation reports them). Returns the renamed entries.
 */
export function qualifyDuplicateNames<T>(entries: readonly T[]): {
  entries: T[];
  renamed: RenamedTool[];
} {
  // a name's one server, or the set of them once a second appears: nearly every name has one,
  // and a set per tool was most of the cost of loading a catalog without clashes
  const servers = new Map<string, string | Set<string>>();
  for (const entry of entries) {
    if (
      isPlainObject(entry) &&
      typeof entry.name === "string" &&
      typeof entry.server === "string"
    ) {
      const known = servers.get(entry.name);
      if (known === undefined) servers.set(entry.name, entry.server);
      else if (typeof known !== "string") known.add(entry.server);
      else if (known !== entry.server) servers.set(entry.name, new Set([known, entry.server]));
    }
  }
  // a host tool (no server) keeps its bare name: the server tools that share it are qualified
  const hostNames = new Set<string>();
  for (const entry of entries) {
    if (isPlainObject(entry) && typeof entry.name === "string" && entry.server === undefined) {
      hostNames.add(entry.name);
    }
  }
  const serverCount = (name: string) => {
    const known = servers.get(name);
    return known === undefined ? 0 : typeof known === "string" ? 1 : known.size;
  };
  const shared = (name: string) => serverCount(name) >= (hostNames.has(name) ? 1 : 2);
  const qualified = new Set<string>();
  for (const [name, set] of servers) {
    if (typeof set !== "string") for (const server of set) qualified.add(`${server}/${name}`);
  }
  const renamed: RenamedTool[] = [];
  const result = entries.map((entry) => {
    if (!isPlainObject(entry) || typeof entry.name !== "string") return entry;
    if (typeof entry.server !== "string") return entry;
    if (!shared(entry.name) && !qualified.has(entry.name)) return entry;
    const to = `${entry.server}/${entry.name}`;
    renamed.push({ from: entry.name, to, server: entry.server });
    return { ...entry, name: to, upstreamName: upstreamNameOf(entry) } as T;
  });
  return { entries: result, renamed };
}

/** The name a tool's server knows: kept through every rename (a renamed name is renamed again). */
export function upstreamNameOf(entry: Record<string, unknown>): string {
  return typeof entry.upstreamName === "string" ? entry.upstreamName : String(entry.name);
}

/** One line naming the names shared by several servers and what they became. */
export function describeRenames(renamed: readonly RenamedTool[]): string {
  const byName = new Map<string, string[]>();
  for (const item of renamed) byName.set(item.from, [...(byName.get(item.from) ?? []), item.to]);
  const names = [...byName.keys()];
  const shown = names
    .slice(0, 8)
    .map((name) => `${name} → ${(byName.get(name) ?? []).join(", ")}`)
    .join("; ");
  const more = names.length > 8 ? ` (and ${names.length - 8} more names)` : "";
  return `${names.length} tool name(s) are served by more than one server, so those tools are called server/name: ${shown}${more}. Pass duplicates: "error" to fail instead.`;
}
