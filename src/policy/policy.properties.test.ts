import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { BUILT_IN_PROFILES } from "./built-in-profiles.js";
import { createPolicy } from "./create-policy.js";
import { matchesSelector } from "./selector.js";
import type { PolicyLayer, ProfileDefinition } from "./types.js";

const SELECTORS = [
  "*",
  "github_*",
  "*delete*",
  "fs_read_file",
  "{fs,git}_*",
  "server:git*",
  "server:slack",
  "category:code",
  "category:{files,GIT}",
  "tag:vcs",
  "tag:*",
  "profile:coding",
  "profile:r*",
  "annotation:readOnlyHint",
  "annotation:destructiveHint",
];

const CUSTOM: readonly ProfileDefinition[] = [
  { name: "review", include: ["github_*", "tag:vcs"], exclude: ["*delete*"] },
  { name: "review-plus", extends: "review", include: ["server:slack"], includeUnprofiled: true },
];

const toolArbitrary: fc.Arbitrary<ToolDefinition> = fc
  .record(
    {
      prefix: fc.constantFrom("github", "fs", "git", "slack", "admin"),
      verb: fc.constantFrom("list", "read", "delete", "create"),
      noun: fc.constantFrom("file", "issue", "repo"),
      server: fc.constantFrom("github", "gitlab", "slack", "fs"),
      category: fc.constantFrom("code", "files", "git", "Chat"),
      tags: fc.subarray(["vcs", "coding", "core"]),
      profiles: fc.subarray(["coding", "minimal", "review", "reporting"]),
      annotations: fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() }),
    },
    { requiredKeys: ["prefix", "verb", "noun"] },
  )
  .map(({ prefix, verb, noun, ...rest }) => ({
    name: `${prefix}_${verb}_${noun}`,
    description: "",
    inputSchema: { type: "object" },
    ...rest,
  }));

const layersArbitrary: fc.Arbitrary<PolicyLayer[]> = fc
  .array(
    fc.record(
      {
        allow: fc.array(fc.constantFrom(...SELECTORS), { maxLength: 3 }),
        deny: fc.array(fc.constantFrom(...SELECTORS), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 4 },
  )
  .map((layers) => layers.map((layer, index) => ({ label: `layer${index}`, ...layer })));

const profileArbitrary = fc.constantFrom("full", "minimal", "coding", "review", "review-plus");
const toolsArbitrary = fc.array(toolArbitrary, { minLength: 1, maxLength: 25 });

/** A direct reading of the documented rules, written separately from the implementation. */
function referenceMember(name: string, tool: ToolDefinition): boolean {
  const profile = [...BUILT_IN_PROFILES, ...CUSTOM].find((item) => item.name === name)!;
  const matches = (selectors: readonly string[] | undefined) =>
    (selectors ?? []).some((selector) => matchesSelector(tool, selector));
  if (matches(profile.exclude)) return false;
  const declared = tool.profiles ?? [];
  return (
    declared.includes(name) ||
    matches(profile.include) ||
    (declared.length === 0 && profile.includeUnprofiled === true) ||
    (profile.extends !== undefined && referenceMember(profile.extends, tool))
  );
}

function referenceFirstBlocker(profile: string, layers: PolicyLayer[], tool: ToolDefinition) {
  if (!referenceMember(profile, tool)) return `profile:${profile}`;
  for (const layer of layers) {
    const hit = (selectors: readonly string[] | undefined) =>
      (selectors ?? []).some((selector) => matchesSelector(tool, selector));
    if (hit(layer.deny)) return layer.label;
    if (layer.allow !== undefined && !hit(layer.allow)) return layer.label;
  }
  return undefined;
}

describe("policy properties", () => {
  it("decisions match the documented rules; explain names the first blocking layer", () => {
    fc.assert(
      fc.property(profileArbitrary, layersArbitrary, toolsArbitrary, (profile, layers, tools) => {
        const policy = createPolicy({ profile, profiles: CUSTOM, layers });
        for (const tool of tools) {
          const blocker = referenceFirstBlocker(profile, layers, tool);
          const decision = policy.explain(tool);
          expect(policy.isAllowed(tool)).toBe(blocker === undefined);
          expect(decision.visible).toBe(blocker === undefined);
          if (!decision.visible && decision.found) expect(decision.layer).toBe(blocker);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("filter does not depend on the order of the tools", () => {
    fc.assert(
      fc.property(
        profileArbitrary,
        layersArbitrary,
        toolsArbitrary.chain((tools) =>
          fc.tuple(fc.constant(tools), fc.shuffledSubarray(tools, { minLength: tools.length })),
        ),
        (profile, layers, [tools, shuffled]) => {
          const kept = new Set(createPolicy({ profile, profiles: CUSTOM, layers }).filter(tools));
          const fresh = createPolicy({ profile, profiles: CUSTOM, layers });
          const keptShuffled = fresh.filter(shuffled);
          expect(new Set(keptShuffled)).toEqual(kept);
          // and filter keeps the caller's order
          expect(keptShuffled).toEqual(shuffled.filter((tool) => kept.has(tool)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a tool matched by any deny selector in any layer is never allowed", () => {
    fc.assert(
      fc.property(profileArbitrary, layersArbitrary, toolsArbitrary, (profile, layers, tools) => {
        const policy = createPolicy({ profile, profiles: CUSTOM, layers });
        for (const tool of tools) {
          const denied = layers.some((layer) =>
            (layer.deny ?? []).some((selector) => matchesSelector(tool, selector)),
          );
          if (denied) expect(policy.isAllowed(tool)).toBe(false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("layer order changes only which layer explain names, never visibility", () => {
    fc.assert(
      fc.property(
        layersArbitrary.chain((layers) =>
          fc.tuple(fc.constant(layers), fc.shuffledSubarray(layers, { minLength: layers.length })),
        ),
        toolsArbitrary,
        ([layers, reordered], tools) => {
          const one = createPolicy({ layers });
          const other = createPolicy({ layers: reordered });
          expect(other.filter(tools)).toEqual(one.filter(tools));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("removing a layer never hides a visible tool", () => {
    fc.assert(
      fc.property(layersArbitrary, toolsArbitrary, (layers, tools) => {
        const policy = createPolicy({ profile: "coding", layers });
        const before = new Set(policy.filter(tools));
        const first = layers[0];
        if (first !== undefined) policy.removeLayer(first.label);
        for (const tool of before) expect(policy.isAllowed(tool)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
