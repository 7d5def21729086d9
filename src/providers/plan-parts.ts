/** A turn plan in the shape formatters need: its tool groups, the listing placed, the system note. */
import type { ToolDefinition } from "../catalog/index.js";
import type { TurnPlan } from "../disclosure/index.js";
import { ToolsiftError } from "../errors.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";

/** A plan's tools in the groups formatters treat differently. */
export interface PlanParts {
  meta: readonly ToolDefinition[];
  /** Loaded tools that are not reveals (core tools, or everything when disclosure is off). */
  core: readonly ToolDefinition[];
  /** Tools revealed to the session, in reveal order (appended at the end of `plan.loaded`). */
  revealed: readonly ToolDefinition[];
  /** Tools still deferred, sorted by name. */
  deferred: readonly ToolDefinition[];
  /** Every deferrable tool (revealed and deferred), sorted by name: a turn-stable list. */
  deferrable: readonly ToolDefinition[];
}

function byName(a: ToolDefinition, b: ToolDefinition): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Splits a plan into meta, core, revealed and deferred tools. */
export function planParts(plan: TurnPlan): PlanParts {
  const coreCount = plan.loaded.length - plan.stats.revealed;
  const core = plan.loaded.slice(0, coreCount);
  const revealed = plan.loaded.slice(coreCount);
  const deferred = plan.deferred.map((view) => view.tool);
  return {
    meta: plan.metaTools,
    core,
    revealed,
    deferred,
    deferrable: [...revealed, ...deferred].sort(byName),
  };
}

/**
 * Moves the listing of deferred tools from the search tool's description to the system note when
 * the description would pass the provider's length limit (OpenAI: 1,024 characters), so the
 * listing reaches the model whole instead of being cut. Other plans are returned unchanged.
 */
export function placeListing(plan: TurnPlan, capabilities: ProviderCapabilities): TurnPlan {
  const limit = capabilities.maxDescriptionLength;
  const listing = plan.listing;
  if (limit === undefined || !listing) return plan;
  const suffix = `\n\n${listing}`;
  let moved = false;
  const metaTools = plan.metaTools.map((tool) => {
    if (tool.description.length <= limit || !tool.description.endsWith(suffix)) return tool;
    moved = true;
    return { ...tool, description: tool.description.slice(0, -suffix.length) };
  });
  if (!moved) return plan;
  return { ...plan, metaTools, system: plan.system ? `${plan.system}\n\n${listing}` : listing };
}

/** Your system prompt followed by the plan's note, when you gave one (`options.system`). */
export function joinedSystem(plan: TurnPlan, given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  return [given, plan.system].filter((text) => text !== "").join("\n\n");
}

/** Throws when a plan asks for native search on a provider that has none. */
export function requireClientPlan(plan: TurnPlan, capabilities: ProviderCapabilities): void {
  if (plan.nativeSearch && plan.active) {
    throw new ToolsiftError(
      "invalid_option",
      `${capabilities.id} has no native tool search, but the plan was prepared with nativeSearch: true; prepare with nativeSearch: false (see nativeSearchSupport).`,
    );
  }
}
