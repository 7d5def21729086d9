/** Checks that tools have the shape the search index reads, before it changes anything. */

import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";

/** The problem with a tool's shape, or undefined when the index can read it. */
function problemOf(tool: unknown): string | undefined {
  if (tool === null || typeof tool !== "object") return "is not an object";
  const { name, keywords, tags } = tool as Partial<Record<keyof ToolDefinition, unknown>>;
  if (typeof name !== "string") return "has no string `name`";
  if (keywords !== undefined && !Array.isArray(keywords))
    return "has a `keywords` that is not an array";
  if (tags !== undefined && !Array.isArray(tags)) return "has a `tags` that is not an array";
  return undefined;
}

function describe(tool: unknown, position: number | undefined): string {
  const name = (tool as { name?: unknown } | null)?.name;
  const label = typeof name === "string" ? `"${name}"` : "";
  return position === undefined ? `tool ${label}`.trimEnd() : `tool ${position} ${label}`.trimEnd();
}

/** Throws `invalid_tool` naming the tool when the index cannot read it (`caller` names the method). */
export function checkTool(tool: ToolDefinition, caller: string, position?: number): void {
  const problem = problemOf(tool);
  if (problem === undefined) return;
  throw new ToolsiftError(
    "invalid_tool",
    `${caller}: ${describe(tool, position)} ${problem}; pass tools as the catalog validates them (see validateTools).`,
  );
}

/** Checks every tool of a bulk add, so a bad one fails the call before any tool is added. */
export function checkTools(tools: readonly ToolDefinition[]): void {
  if (!Array.isArray(tools)) {
    throw new ToolsiftError(
      "invalid_tool",
      "addAll: expected an array of tools; pass catalog.list().",
    );
  }
  for (let position = 0; position < tools.length; position += 1) {
    checkTool(tools[position] as ToolDefinition, "addAll", position);
  }
}
