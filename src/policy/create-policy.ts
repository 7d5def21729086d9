/** `createPolicy`: the live profile + layer pipeline with cached per-tool decisions. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { hashString } from "../internal/index.js";
import { DEFAULT_PROFILE } from "./built-in-profiles.js";
import { decide, isVisible, type Pipeline } from "./decide.js";
import { type CompiledLayer, compileLayer } from "./policy-layer.js";
import { ProfileRegistry } from "./profile-registry.js";
import type {
  Policy,
  PolicyDecision,
  PolicyLayer,
  PolicyOptions,
  ProfileDefinition,
  SetLayerOptions,
} from "./types.js";

function layerKey(layer: CompiledLayer): string {
  return JSON.stringify([layer.label, layer.definition.allow ?? null, layer.definition.deny ?? []]);
}

function checkTool(tool: unknown): asserts tool is ToolDefinition {
  if (
    typeof tool !== "object" ||
    tool === null ||
    typeof (tool as ToolDefinition).name !== "string"
  ) {
    throw new ToolsiftError(
      "invalid_option",
      `The policy was given ${JSON.stringify(tool) ?? String(tool)} instead of a tool: pass a ToolDefinition (or a tool name, with the catalog option).`,
    );
  }
}

type SelectorOptions = { caseSensitive: boolean };

/** The given layers compiled, in order; two with one label are an error naming it. */
function compileLayers(
  given: readonly PolicyLayer[],
  selectorOptions: SelectorOptions,
): CompiledLayer[] {
  const layers: CompiledLayer[] = [];
  for (const layer of given) {
    const compiled = compileLayer(layer, selectorOptions);
    if (layers.some((existing) => existing.label === compiled.label)) {
      throw new ToolsiftError(
        "invalid_option",
        `Two layers are labelled "${compiled.label}". Give each layer a unique label.`,
      );
    }
    layers.push(compiled);
  }
  return layers;
}

/** The layers with `compiled` set: replaced in place, or moved before the layer `before`, or
 * appended. Undefined when nothing changes. */
function placeLayer(
  layers: readonly CompiledLayer[],
  compiled: CompiledLayer,
  setOptions: SetLayerOptions,
): CompiledLayer[] | undefined {
  // "before itself" means "stay where you are"
  const before = setOptions.before === compiled.label ? undefined : setOptions.before;
  const index = layers.findIndex((existing) => existing.label === compiled.label);
  if (before === undefined && index >= 0) {
    if (layerKey(layers[index]!) === layerKey(compiled)) return undefined;
    return layers.with(index, compiled);
  }
  const rest = layers.filter((existing) => existing.label !== compiled.label);
  let at = rest.length;
  if (before !== undefined) {
    at = rest.findIndex((existing) => existing.label === before);
    if (at < 0) {
      const labels = rest.map((existing) => existing.label);
      throw new ToolsiftError(
        "invalid_option",
        `setLayer("${compiled.label}") was asked to go before unknown layer "${before}". Existing layers: ${labels.length > 0 ? labels.join(", ") : "none"}.`,
      );
    }
  }
  return [...rest.slice(0, at), compiled, ...rest.slice(at)];
}

/** A key that changes with the profile chain and the layers: the plan cache keys on it. */
function policyFingerprint(
  registry: ProfileRegistry,
  profileName: string,
  layers: readonly CompiledLayer[],
): string {
  const chain = registry.chain(profileName).map((profile) => {
    const { name, include, exclude, extends: parent } = profile.definition;
    return [name, include ?? [], exclude ?? [], profile.includeUnprofiled, parent ?? null];
  });
  const state = JSON.stringify([chain, layers.map(layerKey)]);
  return `${profileName}:${hashString(state)}`;
}

/** Visibility per tool object, valid until the policy changes (then `clear`). */
function createVisibilityCache() {
  let cache = new WeakMap<ToolDefinition, boolean>();
  return {
    isVisible(pipeline: Pipeline, tool: ToolDefinition): boolean {
      const cached = cache.get(tool);
      if (cached !== undefined) return cached;
      checkTool(tool);
      const visible = isVisible(pipeline, tool);
      cache.set(tool, visible);
      return visible;
    },
    clear(): void {
      cache = new WeakMap();
    },
  };
}

/** A tool name looked up in the policy's catalog; without one, an error saying what to pass. */
function lookupIn(catalog: PolicyOptions["catalog"], name: string): ToolDefinition | undefined {
  if (catalog === undefined) {
    throw new ToolsiftError(
      "invalid_option",
      `The policy was asked about the tool name "${name}" but has no catalog to look it up: pass createPolicy({ catalog }) or pass the tool object.`,
    );
  }
  return catalog.get(name);
}

/** `explain` of a tool or name: a name the catalog lacks is a decision saying so. */
function explainTool(
  tool: ToolDefinition | string,
  catalog: PolicyOptions["catalog"],
  pipeline: Pipeline,
): PolicyDecision {
  if (typeof tool !== "string") {
    checkTool(tool);
    return decide(pipeline, tool);
  }
  const resolved = lookupIn(catalog, tool);
  if (resolved === undefined) {
    return {
      visible: false,
      found: false,
      tool,
      reason: `No tool named "${tool}" in the catalog, so nothing can show or run it.`,
    };
  }
  return decide(pipeline, resolved);
}

/**
 * Creates a policy. The active profile forms the first layer (label `profile:<name>`); the given
 * layers follow in order. Decisions are cached per tool object (a WeakMap), so tools are treated
 * as immutable: replace a tool (as the catalog does) rather than editing it in place. Every change
 * (profile switch, profile registration, layer set/remove) bumps `version` and drops the cache.
 *
 * @example
 * const policy = createPolicy({ profile: "coding", layers: [{ label: "safety", deny: ["*delete*"] }] });
 * const visible = policy.filter(catalog.list());
 * policy.explain("delete_file"); // { visible: false, layer: "safety", rule: "deny", selector: "*delete*", ... }
 */
export function createPolicy(options: PolicyOptions = {}): Policy {
  const selectorOptions = { caseSensitive: options.caseSensitive === true };
  const registry = new ProfileRegistry(selectorOptions);
  if (options.profiles !== undefined) registry.registerAll(options.profiles);
  const catalog = options.catalog;
  let profileName = options.profile ?? DEFAULT_PROFILE;
  let layers = compileLayers(options.layers ?? [], selectorOptions);
  let pipeline: Pipeline = { registry, profile: registry.require(profileName), layers };
  let version = 0;
  const visibility = createVisibilityCache();
  let fingerprint: string | undefined;
  const listeners = new Set<(version: number) => void>();

  function changed(): void {
    pipeline = { registry, profile: registry.require(profileName), layers };
    version += 1;
    visibility.clear();
    fingerprint = undefined;
    for (const listener of [...listeners]) listener(version);
  }

  const isAllowedTool = (tool: ToolDefinition) => visibility.isVisible(pipeline, tool);

  return {
    isAllowed(tool) {
      if (typeof tool === "string") {
        const found = lookupIn(catalog, tool);
        return found !== undefined && isAllowedTool(found);
      }
      return isAllowedTool(tool);
    },
    filter(tools) {
      return tools.filter(isAllowedTool);
    },
    explain: (tool) => explainTool(tool, catalog, pipeline),
    get profile() {
      return profileName;
    },
    setProfile(name) {
      registry.require(name);
      if (name === profileName) return;
      profileName = name;
      changed();
    },
    registerProfile(profile: ProfileDefinition) {
      registry.registerAll([profile]);
      changed();
    },
    profiles: () => registry.list(),
    setLayer(layer: PolicyLayer, setOptions: SetLayerOptions = {}) {
      const placed = placeLayer(layers, compileLayer(layer, selectorOptions), setOptions);
      if (placed === undefined) return;
      layers = placed;
      changed();
    },
    removeLayer(label) {
      const rest = layers.filter((existing) => existing.label !== label);
      if (rest.length === layers.length) return false;
      layers = rest;
      changed();
      return true;
    },
    layers: () => layers.map((layer) => layer.definition),
    get version() {
      return version;
    },
    fingerprint() {
      fingerprint ??= policyFingerprint(registry, profileName, layers);
      return fingerprint;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
