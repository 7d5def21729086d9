/** Public types of the policy module: profiles, layers, decisions and the Policy object. */

import type { ToolDefinition } from "../catalog/index.js";

/**
 * A named view of the catalog. A tool belongs to profile P when no `exclude` selector matches it
 * and at least one of these holds: its `profiles` array names P; an `include` selector matches it;
 * it declares no profiles and `includeUnprofiled` is true; it belongs to the profile P `extends`.
 */
export interface ProfileDefinition {
  /** Letters, digits, `_`, `.` and `-`; starts with a letter or digit; at most 64 characters. */
  name: string;
  description?: string;
  /** Selectors that pull tools into the profile (see `matchesSelector` for the grammar). */
  include?: readonly string[];
  /** Selectors that keep tools out; they win over every way in, including a tool's own `profiles`. */
  exclude?: readonly string[];
  /** Whether tools that declare no profiles (missing or empty `profiles`) belong. Default false. */
  includeUnprofiled?: boolean;
  /** Name of a profile whose members also belong to this one (its own excludes still apply to it). */
  extends?: string;
}

/**
 * One labelled step of the policy pipeline. A tool passes the layer when no `deny` selector
 * matches it and, if `allow` is present, at least one `allow` selector matches. An empty `allow`
 * array therefore lets nothing through (fail closed).
 */
export interface PolicyLayer {
  /** Unique among layers; the `profile:` prefix is reserved for the active profile's layer. */
  label: string;
  description?: string;
  allow?: readonly string[];
  deny?: readonly string[];
}

/** Why a layer let a tool through explicitly. */
export interface PolicyMatch {
  /** The layer label, e.g. `profile:coding` or `agent`. */
  layer: string;
  /**
   * `allow`: an allow or include selector matched; `declared`: the tool's own `profiles` names the
   * profile; `unprofiled`: the tool declares no profiles and the profile takes such tools.
   */
  rule: "allow" | "declared" | "unprofiled";
  /** The selector that matched (for `declared`, `profile:<name>`). */
  selector?: string;
  /** For the profile layer: which profile in the `extends` chain admitted the tool. */
  profile?: string;
}

/** The decision for a visible tool. */
export interface PolicyAllowed {
  visible: true;
  found: true;
  tool: string;
  /** Layers that admitted the tool through an allow list or profile membership, in order. */
  allowedBy: readonly PolicyMatch[];
  /** Labels of every layer consulted, in order (none of their deny selectors matched). */
  layers: readonly string[];
  /** One sentence for people. */
  reason: string;
}

/** The decision for a tool the policy hides: the first layer that hid it, and the rule. */
export interface PolicyHidden {
  visible: false;
  found: true;
  tool: string;
  layer: string;
  /** `deny`: a deny (or profile exclude) selector matched; `not_allowed`: nothing let it in. */
  rule: "deny" | "not_allowed";
  /** The deny or exclude selector that matched (absent for `not_allowed`). */
  selector?: string;
  /** For the profile layer: which profile in the `extends` chain holds the exclude. */
  profile?: string;
  reason: string;
}

/** The decision for a name the catalog does not know. */
export interface PolicyUnknownTool {
  visible: false;
  found: false;
  tool: string;
  reason: string;
}

/** What `explain` returns. */
export type PolicyDecision = PolicyAllowed | PolicyHidden | PolicyUnknownTool;

/** Looks tools up by name so `explain` and `isAllowed` accept names; a Catalog fits. */
export interface ToolLookup {
  get(name: string): ToolDefinition | undefined;
}

/** Options of `createPolicy`. */
export interface PolicyOptions {
  /** The active profile; default `full`. */
  profile?: string;
  /** Custom profiles, registered in order (they may extend each other or a built-in). */
  profiles?: readonly ProfileDefinition[];
  /** Layers applied after the profile layer, in this order. */
  layers?: readonly PolicyLayer[];
  /** Lets `explain` and `isAllowed` take a tool name. */
  catalog?: ToolLookup;
  /** Match name, server and annotation globs case-sensitively. Default false: `deny:
   * ["*delete*"]` also hides `DELETE_x`. Categories and tags always ignore case. */
  caseSensitive?: boolean;
}

/** Where `setLayer` puts a layer it did not have yet (or moves one it had). */
export interface SetLayerOptions {
  /** Insert before the layer with this label; default: append (a replaced layer keeps its place). */
  before?: string;
}

/** A profile as `profiles()` lists it. */
export interface ProfileInfo extends ProfileDefinition {
  builtIn: boolean;
}

/** The live policy: profile plus ordered layers, with cached per-tool decisions. */
export interface Policy {
  /** True when every layer lets the tool through. Unknown names are not allowed. */
  isAllowed(tool: ToolDefinition | string): boolean;
  /** The visible tools, in the given order. */
  filter<T extends ToolDefinition>(tools: readonly T[]): T[];
  /** Which layer and rule decided, for a tool or (with `catalog`) a name. */
  explain(tool: ToolDefinition | string): PolicyDecision;
  /** Name of the active profile. */
  readonly profile: string;
  /** Switches the active profile; throws `invalid_option` listing known profiles when unknown. */
  setProfile(name: string): void;
  /** Adds a custom profile or replaces one with the same name (built-ins included). */
  registerProfile(profile: ProfileDefinition): void;
  /** Every registered profile, sorted by name. */
  profiles(): readonly ProfileInfo[];
  /** Adds a layer, or replaces the layer with the same label in place. */
  setLayer(layer: PolicyLayer, options?: SetLayerOptions): void;
  /** Removes a layer; returns false when no layer had that label. */
  removeLayer(label: string): boolean;
  /** The layers after the profile layer, in order. */
  layers(): readonly PolicyLayer[];
  /** Increases on every change that may alter decisions. */
  readonly version: number;
  /** A stable hash of the active profile chain and the layers; equal states give equal strings. */
  fingerprint(): string;
  /** Subscribes to policy changes; returns the unsubscribe function. */
  onChange(listener: (version: number) => void): () => void;
}
