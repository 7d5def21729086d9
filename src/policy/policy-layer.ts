/** Validation and compilation of one policy layer. */

import { ToolsiftError } from "../errors.js";
import { didYouMean } from "../internal/index.js";
import { type CompiledSelector, compileSelectors, type SelectorOptions } from "./selector.js";
import type { PolicyLayer } from "./types.js";

const LAYER_KEYS = ["label", "description", "allow", "deny"];

/** The prefix of the profile layer's label; user layers may not use it. */
export const PROFILE_LAYER_PREFIX = "profile:";

/** A layer with its selectors compiled. */
export interface CompiledLayer {
  readonly definition: Readonly<PolicyLayer>;
  readonly label: string;
  /** Absent: the layer allows everything its deny list does not catch. */
  readonly allow: readonly CompiledSelector[] | undefined;
  readonly deny: readonly CompiledSelector[];
}

/** Validates a layer and compiles its selectors; throws `invalid_option` naming the problem. */
export function compileLayer(layer: unknown, options: SelectorOptions = {}): CompiledLayer {
  if (typeof layer !== "object" || layer === null || Array.isArray(layer)) {
    throw new ToolsiftError(
      "invalid_option",
      `A policy layer must be an object like { label: "safety", deny: ["*delete*"] }, got ${JSON.stringify(layer)}.`,
    );
  }
  const record = layer as Record<string, unknown>;
  const label = record.label;
  if (typeof label !== "string" || label.trim() === "" || label !== label.trim()) {
    throw new ToolsiftError(
      "invalid_option",
      `Invalid layer label ${JSON.stringify(label)}: give each layer a non-empty label without surrounding spaces, e.g. "global", "agent", "user".`,
    );
  }
  if (label.startsWith(PROFILE_LAYER_PREFIX)) {
    throw new ToolsiftError(
      "invalid_option",
      `Layer label "${label}" uses the reserved prefix "${PROFILE_LAYER_PREFIX}" (the active profile's layer). Choose another label, or use setProfile() to change the profile.`,
    );
  }
  for (const key of Object.keys(record)) {
    if (!LAYER_KEYS.includes(key)) {
      throw new ToolsiftError(
        "invalid_option",
        `Layer "${label}" has unknown field "${key}".${didYouMean(key, LAYER_KEYS)} Known fields: ${LAYER_KEYS.join(", ")}.`,
      );
    }
  }
  const allow =
    record.allow === undefined
      ? undefined
      : compileSelectors(record.allow, `Layer "${label}" allow`, options);
  const deny = compileSelectors(record.deny ?? [], `Layer "${label}" deny`, options);
  if (record.description !== undefined && typeof record.description !== "string") {
    throw new ToolsiftError(
      "invalid_option",
      `Layer "${label}": description must be a string, got ${JSON.stringify(record.description)}.`,
    );
  }
  // copy the arrays so later edits to the caller's object cannot change decisions behind our back
  const definition: PolicyLayer = { label };
  if (record.description !== undefined) definition.description = record.description;
  if (allow !== undefined) definition.allow = Object.freeze(allow.map((item) => item.source));
  if (record.deny !== undefined) definition.deny = Object.freeze(deny.map((item) => item.source));
  return { definition: Object.freeze(definition), label, allow, deny };
}
