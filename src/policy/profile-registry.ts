/** The set of known profiles: validation, `extends` chains, and profile membership of a tool. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { didYouMean } from "../internal/index.js";
import { BUILT_IN_PROFILES } from "./built-in-profiles.js";
import { type CompiledSelector, compileSelectors, type SelectorOptions } from "./selector.js";
import type { PolicyMatch, ProfileDefinition, ProfileInfo } from "./types.js";

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const PROFILE_KEYS = ["name", "description", "include", "exclude", "includeUnprofiled", "extends"];

/** A registered profile with its selectors compiled. */
export interface CompiledProfile {
  readonly definition: Readonly<ProfileDefinition>;
  readonly builtIn: boolean;
  readonly include: readonly CompiledSelector[];
  readonly exclude: readonly CompiledSelector[];
  readonly includeUnprofiled: boolean;
}

/** How a profile decided about a tool, for `explain`. */
export type ProfileVerdict =
  | { member: true; match: Omit<PolicyMatch, "layer"> }
  | { member: false; excludedBy?: { selector: string; profile: string } };

function validate(profile: unknown, options: SelectorOptions, builtIn = false): CompiledProfile {
  if (typeof profile !== "object" || profile === null || Array.isArray(profile)) {
    throw new ToolsiftError(
      "invalid_option",
      `A profile must be an object like { name: "review", include: ["github_*"] }, got ${JSON.stringify(profile)}.`,
    );
  }
  const record = profile as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string" || !PROFILE_NAME.test(name)) {
    throw new ToolsiftError(
      "invalid_option",
      `Invalid profile name ${JSON.stringify(name)}: use 1-64 letters, digits, "_", "." or "-", starting with a letter or digit.`,
    );
  }
  for (const key of Object.keys(record)) {
    if (!PROFILE_KEYS.includes(key)) {
      throw new ToolsiftError(
        "invalid_option",
        `Profile "${name}" has unknown field "${key}".${didYouMean(key, PROFILE_KEYS)} Known fields: ${PROFILE_KEYS.join(", ")}.`,
      );
    }
  }
  const flag = record.includeUnprofiled;
  if (flag !== undefined && typeof flag !== "boolean") {
    throw new ToolsiftError(
      "invalid_option",
      `Profile "${name}": includeUnprofiled must be true or false, got ${JSON.stringify(flag)}.`,
    );
  }
  if (record.extends !== undefined && typeof record.extends !== "string") {
    throw new ToolsiftError(
      "invalid_option",
      `Profile "${name}": extends must be the name of another profile, got ${JSON.stringify(record.extends)}.`,
    );
  }
  if (record.description !== undefined && typeof record.description !== "string") {
    throw new ToolsiftError(
      "invalid_option",
      `Profile "${name}": description must be a string, got ${JSON.stringify(record.description)}.`,
    );
  }
  // a built-in's globs are compiled on first use (see `deferredGlob`)
  const include = compileSelectors(
    record.include ?? [],
    `Profile "${name}" include`,
    options,
    builtIn,
  );
  const exclude = compileSelectors(
    record.exclude ?? [],
    `Profile "${name}" exclude`,
    options,
    builtIn,
  );
  // copy the arrays so later edits to the caller's object cannot change decisions behind our back
  const definition: ProfileDefinition = { name };
  if (record.description !== undefined) definition.description = record.description;
  if (record.include !== undefined)
    definition.include = Object.freeze(include.map((selector) => selector.source));
  if (record.exclude !== undefined)
    definition.exclude = Object.freeze(exclude.map((selector) => selector.source));
  if (flag !== undefined) definition.includeUnprofiled = flag;
  if (record.extends !== undefined) definition.extends = record.extends;
  return {
    definition: Object.freeze(definition),
    builtIn: false,
    include,
    exclude,
    includeUnprofiled: flag === true,
  };
}

/** Known profiles by name; starts with the built-ins. */
export class ProfileRegistry {
  private readonly byName = new Map<string, CompiledProfile>();

  constructor(private readonly options: SelectorOptions = {}) {
    for (const profile of BUILT_IN_PROFILES) {
      this.byName.set(profile.name, { ...validate(profile, options, true), builtIn: true });
    }
  }

  /** Registers profiles all at once (they may extend each other in any order); all or nothing. */
  registerAll(profiles: readonly ProfileDefinition[]): void {
    const staged = new Map(this.byName);
    for (const profile of profiles) {
      const compiled = validate(profile, this.options);
      staged.set(compiled.definition.name, compiled);
    }
    for (const name of staged.keys()) checkChain(name, staged);
    for (const [name, compiled] of staged) this.byName.set(name, compiled);
  }

  get(name: string): CompiledProfile | undefined {
    return this.byName.get(name);
  }

  /** Throws `invalid_option` naming the known profiles when `name` is not one. */
  require(name: string): CompiledProfile {
    const found = this.byName.get(name);
    if (found !== undefined) return found;
    const known = this.names();
    const hint = didYouMean(String(name), known);
    throw new ToolsiftError(
      "invalid_option",
      `Unknown profile ${JSON.stringify(name)}.${hint} Known profiles: ${known.join(", ")}. Register custom ones with registerProfile() or the profiles option.`,
    );
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }

  list(): ProfileInfo[] {
    return this.names().map((name) => {
      const profile = this.byName.get(name)!;
      return { ...profile.definition, builtIn: profile.builtIn };
    });
  }

  /** The profile and its ancestors, child first. */
  chain(name: string): CompiledProfile[] {
    const chain: CompiledProfile[] = [];
    let current: CompiledProfile | undefined = this.require(name);
    while (current !== undefined) {
      chain.push(current);
      const parent: string | undefined = current.definition.extends;
      current = parent === undefined ? undefined : this.byName.get(parent);
    }
    return chain;
  }

  /** Whether the tool belongs to the profile (the fast path of `verdict`). */
  isMember(profile: CompiledProfile, tool: ToolDefinition): boolean {
    for (const selector of profile.exclude) if (selector.test(tool)) return false;
    const declared = tool.profiles;
    if (declared !== undefined && declared.length > 0) {
      if (declared.includes(profile.definition.name)) return true;
    } else if (profile.includeUnprofiled) {
      return true;
    }
    for (const selector of profile.include) if (selector.test(tool)) return true;
    const parent = profile.definition.extends;
    return parent !== undefined && this.isMember(this.byName.get(parent)!, tool);
  }

  /** Whether and why the tool belongs to the profile. */
  verdict(profile: CompiledProfile, tool: ToolDefinition): ProfileVerdict {
    const name = profile.definition.name;
    for (const selector of profile.exclude) {
      if (selector.test(tool)) {
        return { member: false, excludedBy: { selector: selector.source, profile: name } };
      }
    }
    const declared = tool.profiles;
    if (declared !== undefined && declared.length > 0) {
      if (declared.includes(name)) {
        return {
          member: true,
          match: { rule: "declared", selector: `profile:${name}`, profile: name },
        };
      }
    }
    for (const selector of profile.include) {
      if (selector.test(tool)) {
        return { member: true, match: { rule: "allow", selector: selector.source, profile: name } };
      }
    }
    if ((declared === undefined || declared.length === 0) && profile.includeUnprofiled) {
      return { member: true, match: { rule: "unprofiled", profile: name } };
    }
    const parent = profile.definition.extends;
    if (parent === undefined) return { member: false };
    return this.verdict(this.byName.get(parent)!, tool);
  }
}

function checkChain(start: string, profiles: ReadonlyMap<string, CompiledProfile>): void {
  const seen: string[] = [];
  let name: string | undefined = start;
  while (name !== undefined) {
    if (seen.includes(name)) {
      throw new ToolsiftError(
        "invalid_option",
        `Profile "${start}" extends itself through ${[...seen, name].join(" -> ")}. Remove one of the extends.`,
      );
    }
    seen.push(name);
    const profile = profiles.get(name);
    const parent: string | undefined =
      profile === undefined ? undefined : profile.definition.extends;
    if (parent !== undefined && !profiles.has(parent)) {
      throw new ToolsiftError(
        "invalid_option",
        `Profile "${name}" extends unknown profile "${parent}".${didYouMean(parent, [...profiles.keys()])} Known profiles: ${[...profiles.keys()].sort().join(", ")}.`,
      );
    }
    name = parent;
  }
}
