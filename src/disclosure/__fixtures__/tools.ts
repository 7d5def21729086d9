/** Fixtures shared by the disclosure tests: tools, a catalog and a tiny substring search. */

import type { ToolDefinition } from "../../catalog/index.js";
import type { SearchResult } from "../../search/index.js";
import type { DisclosureCatalog, SearchFunction } from "../types.js";

/** A deferrable MCP-style tool with one required string parameter. */
export function mcpTool(
  name: string,
  server = "srv",
  extra: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name,
    description: `Does ${name.replace(/_/g, " ")}. More text follows here.`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    server,
    handler: (args) => ({ ran: name, args }),
    ...extra,
  };
}

/** A core tool of the host (declared `core: true`, no server) that echoes its arguments. */
export function coreTool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `Core ${name}.`,
    inputSchema: { type: "object", properties: {} },
    core: true,
    handler: () => `core ${name}`,
    ...extra,
  };
}

/** A catalog over a mutable array; `fingerprint` changes when `version` is bumped. */
export function arrayCatalog(
  tools: ToolDefinition[],
): DisclosureCatalog & { version: number; tools: ToolDefinition[] } {
  const catalog = {
    version: 0,
    tools,
    list: () => catalog.tools,
    fingerprint: () => `v${catalog.version}`,
  };
  return catalog;
}

/** Substring search over name and description; every query word must appear. */
export const substringSearch =
  (catalog: DisclosureCatalog): SearchFunction =>
  (query, options) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const pool = catalog.list().filter((tool) => options.filter?.(tool) ?? true);
    const hits = pool
      .filter((tool) => {
        const text = `${tool.name} ${tool.description}`.toLowerCase();
        return words.every((word) => text.includes(word));
      })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .slice(0, options.limit ?? 5)
      .map((tool) => ({ name: tool.name, score: 1, tool }));
    const result: SearchResult = { query, kind: "keyword", hits, total: pool.length };
    if (hits.length === 0) result.suggestions = pool.slice(0, 2).map((tool) => tool.name);
    return result;
  };

/** A search that ignores its filter, to prove disclosure re-checks visibility itself. */
export const leakySearch =
  (catalog: DisclosureCatalog): SearchFunction =>
  (query) => {
    const hits = catalog.list().map((tool) => ({ name: tool.name, score: 1, tool }));
    return {
      query,
      kind: "keyword",
      hits,
      total: hits.length,
      suggestions: hits.map((h) => h.name),
    };
  };

/** The text of a result's first content block. */
export function textOf(result: { content: readonly { type: string; text?: unknown }[] }): string {
  const block = result.content[0];
  return block && typeof block.text === "string" ? block.text : "";
}
