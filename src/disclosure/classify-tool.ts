import picomatch from "picomatch";
import type { ToolDefinition } from "../catalog/index.js";

/** Whether a tool stays loaded (`core`) or may be deferred (`deferrable`). */
export type ToolClass = "core" | "deferrable";

/**
 * Builds the classifier that decides which tools may be deferred.
 *
 * Order: `defer: "never"` and the never-defer list (exact names or picomatch globs) keep a tool
 * loaded; `defer: "always"` makes it deferrable; otherwise a tool with a `server` (MCP) is
 * deferrable and one without (a core tool of the host) stays loaded.
 */
export function createToolClassifier(
  neverDefer: readonly string[] = [],
): (tool: ToolDefinition) => ToolClass {
  const exact = new Set(neverDefer);
  const globs = neverDefer.filter((pattern) => picomatch.scan(pattern).isGlob);
  const matchGlob = globs.length > 0 ? picomatch(globs, { dot: true, bash: true }) : () => false;
  return (tool) => {
    if (tool.defer === "never" || exact.has(tool.name) || matchGlob(tool.name)) return "core";
    if (tool.defer === "always") return "deferrable";
    return tool.server === undefined ? "core" : "deferrable";
  };
}
