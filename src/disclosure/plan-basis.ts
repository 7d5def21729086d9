import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { createPinMatcher, createToolClassifier } from "./classify-tool.js";
import type { MetaToolNames } from "./types.js";

/** The visible catalog split into core and deferrable tools, sorted by name. */
export interface PlanBasis {
  /** Every visible tool, by name. */
  visible: ReadonlyMap<string, ToolDefinition>;
  /** Visible tools that always stay loaded, sorted by name. */
  core: readonly ToolDefinition[];
  /** Visible tools that may be deferred, sorted by name. */
  deferrable: readonly ToolDefinition[];
  deferrableNames: ReadonlySet<string>;
  /** Core tools pinned explicitly (`defer: "never"` or never-defer list): no budget moves them. */
  pinned: ReadonlySet<string>;
  /** Unpinned core tools that a definitions budget made deferrable, sorted (see `budgetedBasis`). */
  demoted: readonly string[];
}

/** Code-unit order: locale-independent, so every machine sorts the same way. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Splits the catalog into the visible core and deferrable sets.
 *
 * Hidden tools are dropped here and nowhere else matters: every later step works from this
 * basis. Throws `duplicate_tool` for repeated names and `invalid_tool` when a tool takes a meta
 * tool's name (rename it or set `metaToolNames`).
 */
export function buildPlanBasis(
  tools: readonly ToolDefinition[],
  isVisible: ((tool: ToolDefinition) => boolean) | undefined,
  neverDefer: readonly string[] | undefined,
  metaNames: MetaToolNames,
): PlanBasis {
  const reserved = new Set([metaNames.search, metaNames.describe, metaNames.call]);
  const classify = createToolClassifier(neverDefer);
  const isPinned = createPinMatcher(neverDefer);
  const pinned = new Set<string>();
  const seen = new Set<string>();
  const visible = new Map<string, ToolDefinition>();
  const core: ToolDefinition[] = [];
  const deferrable: ToolDefinition[] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw new ToolsiftError(
        "duplicate_tool",
        `Tool "${tool.name}" appears twice in the catalog. Give each tool a unique name.`,
      );
    }
    seen.add(tool.name);
    if (reserved.has(tool.name)) {
      throw new ToolsiftError(
        "invalid_tool",
        `Tool "${tool.name}" uses a meta tool's reserved name. Rename the tool or set disclosure metaToolNames.`,
      );
    }
    if (isVisible && !isVisible(tool)) continue;
    visible.set(tool.name, tool);
    (classify(tool) === "core" ? core : deferrable).push(tool);
    if (isPinned(tool)) pinned.add(tool.name);
  }
  core.sort(byName);
  deferrable.sort(byName);
  return {
    visible,
    core,
    deferrable,
    deferrableNames: new Set(deferrable.map((tool) => tool.name)),
    pinned,
    demoted: [],
  };
}
