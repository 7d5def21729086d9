/** Per-server tool counts for a no-match result, so the model can browse a server instead. */
import type { ToolDefinition } from "../../catalog/index.js";
import type { ServerSummary } from "../types.js";

/** How many tools each server offers, by server name; tools without a server are left out. */
export function summarizeServers(tools: Iterable<ToolDefinition>): ServerSummary[] {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    if (tool.server === undefined || tool.server === "") continue;
    counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  }
  return [...counts]
    .map(([server, tools]) => ({ server, tools }))
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
}
