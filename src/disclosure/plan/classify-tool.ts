import picomatch from "picomatch";
import type { ToolDefinition } from "../../catalog/index.js";

/** Whether a tool stays loaded (`core`) or may be deferred (`deferrable`). */
export type ToolClass = "core" | "deferrable";

/** The default rule in one sentence, as the README, docs/design.md and the inspector say it. */
export const DEFER_RULE =
  "the host's own tools (no server) stay loaded and tools from MCP servers are deferred, unless core, defer or neverDefer says otherwise";

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
 * Origin sets the default, as in the agent runtimes toolsift replaces: a tool the host defined
 * (no `server`) is core, a tool from an MCP server (every loader sets its `server`, `"mcp"` when
 * no name is known) is deferrable. Declarations override both ways, strongest first: `defer:
 * "never"` and the never-defer list pin a tool loaded (nothing moves it); `defer: "always"` makes
 * it deferrable; `core: true`/`false` decides next; `defer: "auto"` makes a host tool deferrable.
 * Core tools that are not pinned stay loaded only while the definitions budget and the
 * provider's tool limit leave room.
 */
export function createToolClassifier(
  neverDefer: readonly string[] = [],
): (tool: ToolDefinition) => ToolClass {
  const pinned = createPinMatcher(neverDefer);
  return (tool) => {
    if (pinned(tool)) return "core";
    if (tool.defer === "always") return "deferrable";
    if (tool.core !== undefined) return tool.core ? "core" : "deferrable";
    if (tool.defer === "auto") return "deferrable";
    return tool.server === undefined ? "core" : "deferrable";
  };
}

/**
 * Why a visible tool is loaded or deferred in a plan, in one sentence (the inspector's "why"):
 * the declaration that decided it, or the rule by origin. `active` is the plan's.
 */
export function loadReason(
  tool: ToolDefinition,
  state: "loaded" | "deferred",
  active: boolean,
): string {
  if (state === "loaded" && !active) return "Loaded: disclosure is not active this turn.";
  if (state === "loaded") {
    if (tool.defer === "never") return 'Loaded: pinned by defer: "never".';
    if (tool.core === true) return "Loaded: declared core: true.";
    if (tool.server === undefined) return `Loaded by origin: ${DEFER_RULE}.`;
    return "Loaded: pinned by neverDefer, or revealed by a search.";
  }
  if (tool.defer === "always") return 'Deferred: declared defer: "always".';
  if (tool.core === false) return "Deferred: declared core: false.";
  if (tool.server === undefined && tool.defer !== "auto") {
    return "Deferred: a core tool moved behind search by the definitions budget or the provider's tool limit.";
  }
  if (tool.server === undefined) return 'Deferred: declared defer: "auto".';
  return `Deferred by origin: ${DEFER_RULE}.`;
}
