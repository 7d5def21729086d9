/** Separating what an MCP server may say about a tool (the wire fields) from what only the host
 * decides (server, search hints, deferral, budgets): issue 15 item 3. */
import type { ToolDefinition } from "./types.js";
import { isPlainObject } from "./validate-tools.js";

/** The origin of a tool from MCP whose server has no name (a bare `tools/list` result): every
 * tool from MCP carries an origin, because origin decides whether it is deferred by default. */
export const MCP_ORIGIN = "mcp";

/** The fields of an MCP `tools/list` entry toolsift reads; everything else in a payload is ignored
 * unless the host trusts the document (`trust: "host"`). */
export const WIRE_FIELDS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
] as const;

/** The toolsift control fields of a tool: set by the host, never read from an MCP payload. */
export type ToolControl = Pick<
  ToolDefinition,
  | "category"
  | "tags"
  | "searchHint"
  | "keywords"
  | "profiles"
  | "defer"
  | "core"
  | "maxResultTokens"
  | "truncation"
  | "handler"
>;

/** Control fields for every tool of a list, or a function choosing them per tool. */
export type ControlOption =
  | ToolControl
  | ((tool: { name: string; server: string | undefined }) => ToolControl | undefined);

/** Where the fields of a tools document come from. */
export interface SourceOptions {
  /** Server of every tool; with `trust: "wire"` the payload's own `server` is ignored. */
  server?: string;
  /**
   * `wire` (default): the document came from an MCP server, so only its MCP fields
   * (`WIRE_FIELDS`) are read; `server` and every toolsift control field come from the host
   * (`server` and `control` options). `host`: the host wrote the document, so its control fields
   * (and a tool's own `server`) are kept; `server` then only fills tools that name none.
   */
  trust?: "wire" | "host";
  /** Control fields set by the host (they win over a trusted document's own). */
  control?: ControlOption;
}

/**
 * Turns one raw entry of a tools document into the entry to validate: wire fields only (unless
 * trusted), the server from the host (`MCP_ORIGIN` when none is known), then the host's control
 * fields. A wire name that looks
 * qualified with another server (`server-github/create_issue` sent by server `aaa`) is prefixed
 * with its own server, so it can never shadow the tool it imitates. Non-objects pass through for
 * validation to report.
 */
export function toHostEntry(entry: unknown, options: SourceOptions): unknown {
  if (!isPlainObject(entry)) return entry;
  const trusted = options.trust === "host";
  let result: Record<string, unknown>;
  if (trusted) {
    result = { ...entry };
    if (result.server === undefined && options.server !== undefined) result.server = options.server;
  } else {
    result = {};
    for (const field of WIRE_FIELDS) if (entry[field] !== undefined) result[field] = entry[field];
    if (options.server !== undefined) result.server = options.server;
    const name = result.name;
    const server = options.server;
    if (typeof name === "string" && server !== undefined && name.includes("/")) {
      if (!name.startsWith(`${server}/`)) {
        result.name = `${server}/${name}`;
        result.upstreamName = name;
      }
    }
  }
  // after the name check: a name sent without a known server is not prefixed with "mcp/"
  if (result.server === undefined) result.server = MCP_ORIGIN;
  const control =
    typeof options.control === "function"
      ? options.control({
          name: String(result.name),
          server: typeof result.server === "string" ? result.server : undefined,
        })
      : options.control;
  if (control) {
    for (const [key, value] of Object.entries(control)) {
      if (value !== undefined) result[key] = value;
    }
  }
  return result;
}
