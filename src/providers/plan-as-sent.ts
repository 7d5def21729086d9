/**
 * A plan as one provider is sent it: each tool's provider name, and the model-read text naming
 * tools by those names (issue 20 item 20). Every formatter starts here, so the rule "the model
 * reads a tool by the name it calls it by" is applied in one place.
 */
import { renameListing, type TurnPlan } from "../disclosure/index.js";
import { createNameMapCache, providerNameMap } from "./name-map-cache.js";
import type { NameMap, NameMapOptions } from "./names.js";
import { type PlanParts, placeListing, planParts } from "./plan-parts.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";

/** The plan with its listing named and placed, its parts, and the turn's name map. */
export interface PlanAsSent {
  plan: TurnPlan;
  parts: PlanParts;
  names: NameMap;
  /** Catalog name → provider name, for every tool of the plan (meta tools included). */
  providerNames: Map<string, string>;
}

/**
 * The head every formatter starts with: for each turn, maps the plan's names for the provider
 * (the map is kept while the tool set is unchanged), rewrites the listing of deferred tools
 * (appended to the search tool's description) to those names, then places it (`placeListing`).
 * The listing's token figures in `plan.stats` stay those of the catalog names: the names differ
 * only by the characters a provider refuses, unless a `namespace` option adds server prefixes.
 */
export function createPlanAsSent(capabilities: ProviderCapabilities) {
  const nameMaps = createNameMapCache(capabilities);
  return (planned: TurnPlan, nameOptions: NameMapOptions | undefined): PlanAsSent => {
    const parts = planParts(planned);
    const names = nameMaps(parts, nameOptions);
    const providerNames = providerNameMap(parts, names);
    const plan = placeListing(namedListing(planned, providerNames), capabilities);
    // renaming and placing change descriptions and the note, never which tools are in which part
    return { plan, parts: plan === planned ? parts : planParts(plan), names, providerNames };
  };
}

/** The plan with its listing (and the search tool description that ends with it) renamed. */
function namedListing(plan: TurnPlan, providerNames: ReadonlyMap<string, string>): TurnPlan {
  const listing = plan.listing;
  if (!listing) return plan;
  const renamed = renameListing(listing, providerNames);
  if (renamed === listing) return plan;
  const suffix = `\n\n${listing}`;
  const metaTools = plan.metaTools.map((tool) =>
    tool.description.endsWith(suffix)
      ? { ...tool, description: `${tool.description.slice(0, -suffix.length)}\n\n${renamed}` }
      : tool,
  );
  return { ...plan, metaTools, listing: renamed };
}
