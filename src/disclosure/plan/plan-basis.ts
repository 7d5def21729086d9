import type { ToolDefinition } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";
import type { CountTokens, MetaToolNames } from "../types.js";
import { createPinMatcher, createToolClassifier } from "./classify-tool.js";

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
  /** Catalog tools shown under another name because theirs is a meta tool's: catalog name → shown name. */
  renamed: ReadonlyMap<string, string>;
  /** What the host should hear about this basis (renamed tools), in words. */
  warnings: readonly string[];
}

/** The visible tool a catalog (or shown) name stands for, following renames. */
export function visibleTool(basis: PlanBasis, name: string): ToolDefinition | undefined {
  return basis.visible.get(basis.renamed.get(name) ?? name);
}

/** A free name for a catalog tool whose own name is reserved: qualified by its server. */
function freeName(tool: ToolDefinition, taken: ReadonlySet<string>): string {
  const prefix = (tool.server ?? "upstream").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
  const base = `${prefix}_${tool.name}`.slice(0, 60);
  let name = base;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${base}_${suffix}`;
  return name;
}

/** Up to `shown` names for an error message, then how many more: `a, b, c and 7 more`. */
export function nameSample(names: Iterable<string>, shown = 10): string {
  const all = [...names].sort();
  const rest = all.length - shown;
  return rest > 0 ? `${all.slice(0, shown).join(", ")} and ${rest} more` : all.join(", ");
}

/** Code-unit order: locale-independent, so every machine sorts the same way. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Splits the catalog into the visible core and deferrable sets.
 *
 * Hidden tools are dropped here and nowhere else matters: every later step works from this
 * basis. Throws `duplicate_tool` for repeated names. A catalog tool that takes a meta tool's name
 * (an MCP server may expose `tool_search`) is shown under its server-qualified name
 * (`github_tool_search`, or `upstream_tool_search` without a server) with a warning: one server's
 * naming never takes the session down. `adapt` rewrites each tool first (description sanitiser).
 */
export function buildPlanBasis(
  tools: readonly ToolDefinition[],
  isVisible: ((tool: ToolDefinition) => boolean) | undefined,
  neverDefer: readonly string[] | undefined,
  metaNames: MetaToolNames,
  adapt?: (tool: ToolDefinition) => ToolDefinition,
): PlanBasis {
  const reserved = new Set([metaNames.search, metaNames.describe, metaNames.call]);
  const classify = createToolClassifier(neverDefer);
  const isPinned = createPinMatcher(neverDefer);
  const pinned = new Set<string>();
  const seen = new Set<string>();
  const visible = new Map<string, ToolDefinition>();
  const core: ToolDefinition[] = [];
  const deferrable: ToolDefinition[] = [];
  const renamed = new Map<string, string>();
  const warnings: string[] = [];
  let taken: Set<string> | undefined;
  for (const original of tools) {
    let tool = original;
    if (seen.has(tool.name)) {
      throw new ToolsiftError(
        "duplicate_tool",
        `Tool "${tool.name}" appears twice in the catalog. Give each tool a unique name.`,
      );
    }
    seen.add(tool.name);
    // policy and pins read the catalog's own definition and name
    if (isVisible && !isVisible(original)) continue;
    if (adapt) tool = adapt(tool);
    if (reserved.has(tool.name)) {
      taken ??= new Set([...tools.map((each) => each.name), ...reserved]);
      const name = freeName(tool, taken);
      taken.add(name);
      renamed.set(tool.name, name);
      warnings.push(
        `Tool "${tool.name}"${tool.server === undefined ? "" : ` from server "${tool.server}"`} takes a meta tool's name; the model sees it as "${name}". Rename it upstream or set disclosure metaToolNames to keep its name.`,
      );
      tool = { ...tool, name };
    }
    visible.set(tool.name, tool);
    (classify(original) === "core" ? core : deferrable).push(tool);
    if (isPinned(original)) pinned.add(tool.name);
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
    renamed,
    warnings,
  };
}

/** Measuring helpers a plan needs. */
export interface PlanCounters {
  count: CountTokens;
  definition: (tool: ToolDefinition) => number;
  signature: (tool: ToolDefinition) => string;
}
