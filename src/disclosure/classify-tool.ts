import picomatch from "picomatch";
import type { ToolDefinition } from "../catalog/index.js";

/** Whether a tool stays loaded (`core`) or may be deferred (`deferrable`). */
export type ToolClass = "core" | "deferrable";

/**
 * Builds the test for pinned tools: `defer: "never"` or a match in the never-defer list (exact
 * names or picomatch globs). Pinned tools are never deferred, not even by a definitions budget.
 */
export function createPinMatcher(
  neverDefer: readonly string[] = [],
): (tool: ToolDefinition) => boolean {
  const exact = new Set(neverDefer);
  const globs = neverDefer.filter((pattern) => picomatch.scan(pattern).isGlob);
  const matchGlob = globs.length > 0 ? picomatch(globs, { dot: true, bash: true }) : () => false;
  return (tool) => tool.defer === "never" || exact.has(tool.name) || matchGlob(tool.name);
}

/**
 * Builds the classifier that decides which tools may be deferred.
 *
 * Core tools are declared, never inferred: `defer: "never"` and the never-defer list (exact names
 * or picomatch globs) pin a tool loaded, and `core: true` keeps it loaded while budgets allow
 * (`defer: "always"` wins over `core`). Everything else is deferrable, with or without a
 * `server`: real `tools/list` results carry no server, and loading them must not load them all.
 */
export function createToolClassifier(
  neverDefer: readonly string[] = [],
): (tool: ToolDefinition) => ToolClass {
  const pinned = createPinMatcher(neverDefer);
  return (tool) => {
    if (pinned(tool)) return "core";
    if (tool.defer === "always") return "deferrable";
    return tool.core === true ? "core" : "deferrable";
  };
}
