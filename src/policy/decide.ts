/**
 * Evaluation of the pipeline for one tool: the profile layer first, then each layer in order. A
 * tool is visible iff every layer lets it through, so the first layer that hides it decides.
 * `isVisible` is the allocation-free fast path; `decide` builds the full answer for `explain`.
 * Both read the same compiled data and must agree (a property test checks that).
 */

import type { ToolDefinition } from "../catalog/index.js";
import type { CompiledLayer } from "./policy-layer.js";
import type { CompiledProfile, ProfileRegistry } from "./profile-registry.js";
import type { PolicyDecision, PolicyHidden, PolicyMatch } from "./types.js";

/** What the pipeline is made of at one version. */
export interface Pipeline {
  readonly registry: ProfileRegistry;
  readonly profile: CompiledProfile;
  readonly layers: readonly CompiledLayer[];
}

/** The label of the layer the active profile forms. */
export function profileLayerLabel(profile: CompiledProfile): string {
  return `profile:${profile.definition.name}`;
}

/** Whether every layer lets the tool through. */
export function isVisible(pipeline: Pipeline, tool: ToolDefinition): boolean {
  if (!pipeline.registry.isMember(pipeline.profile, tool)) return false;
  for (const layer of pipeline.layers) {
    for (const selector of layer.deny) if (selector.test(tool)) return false;
    if (layer.allow !== undefined && !layer.allow.some((selector) => selector.test(tool))) {
      return false;
    }
  }
  return true;
}

function list(selectors: readonly { source: string }[]): string {
  const shown = selectors.slice(0, 5).map((selector) => `"${selector.source}"`);
  const more = selectors.length > 5 ? `, and ${selectors.length - 5} more` : "";
  return shown.length === 0 ? "none" : `${shown.join(", ")}${more}`;
}

function notInProfile(tool: ToolDefinition, profile: CompiledProfile): string {
  const name = profile.definition.name;
  const declared = tool.profiles ?? [];
  const own =
    declared.length > 0
      ? `its profiles [${declared.join(", ")}] do not include "${name}"`
      : `it declares no profiles and profile "${name}" leaves such tools out`;
  const parent = profile.definition.extends;
  const extended =
    parent === undefined ? "" : `, nor is it in "${parent}", which "${name}" extends`;
  return `not in profile "${name}": ${own}, no include selector matches (${list(profile.include)})${extended}.`;
}

/** The full decision for one tool, naming the layer and rule that decided. */
export function decide(pipeline: Pipeline, tool: ToolDefinition): PolicyDecision {
  const { registry, profile } = pipeline;
  const profileLabel = profileLayerLabel(profile);
  const hidden = (fields: Omit<PolicyHidden, "visible" | "found" | "tool">): PolicyHidden => ({
    visible: false,
    found: true,
    tool: tool.name,
    ...fields,
  });
  const verdict = registry.verdict(profile, tool);
  if (!verdict.member) {
    const excluded = verdict.excludedBy;
    if (excluded === undefined) {
      return hidden({
        layer: profileLabel,
        rule: "not_allowed",
        reason: `Hidden by layer "${profileLabel}": ${notInProfile(tool, profile)}`,
      });
    }
    const via =
      excluded.profile === profile.definition.name
        ? ""
        : ` (extended by "${profile.definition.name}")`;
    return hidden({
      layer: profileLabel,
      rule: "deny",
      selector: excluded.selector,
      profile: excluded.profile,
      reason: `Hidden by layer "${profileLabel}": profile "${excluded.profile}"${via} excludes "${excluded.selector}".`,
    });
  }
  const allowedBy: PolicyMatch[] = [{ layer: profileLabel, ...verdict.match }];
  for (const layer of pipeline.layers) {
    const deny = layer.deny.find((selector) => selector.test(tool));
    if (deny !== undefined) {
      return hidden({
        layer: layer.label,
        rule: "deny",
        selector: deny.source,
        reason: `Hidden by layer "${layer.label}": deny selector "${deny.source}" matches.`,
      });
    }
    if (layer.allow === undefined) continue;
    const allow = layer.allow.find((selector) => selector.test(tool));
    if (allow === undefined) {
      return hidden({
        layer: layer.label,
        rule: "not_allowed",
        reason: `Hidden by layer "${layer.label}": no allow selector matches (allow: ${list(layer.allow)}).`,
      });
    }
    allowedBy.push({ layer: layer.label, rule: "allow", selector: allow.source });
  }
  const layers = [profileLabel, ...pipeline.layers.map((layer) => layer.label)];
  const because = allowedBy
    .map((match) => `"${match.layer}" (${match.selector ?? match.rule})`)
    .join(", ");
  return {
    visible: true,
    found: true,
    tool: tool.name,
    allowedBy,
    layers,
    reason: `Visible: allowed by ${because}; no deny matched in ${layers.length} layer(s).`,
  };
}
