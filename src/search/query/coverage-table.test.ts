import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coverageTable } from "./coverage-table.js";
import type { QueryPlan } from "./query-terms.js";

function planOf(groups: { weight: number; required: boolean }[]): QueryPlan {
  return {
    groups: groups.map((group, index) => ({ token: `w${index}`, ...group })),
    terms: [],
    stems: [],
  };
}

/** The multiplier by its definition: matched weights summed from the lowest group up. */
function expected(plan: QueryPlan, coverage: number, bits: number): number {
  const total = plan.groups.reduce((sum, group) => sum + group.weight, 0);
  let matched = 0;
  plan.groups.forEach((group, index) => {
    if ((bits >>> index) & 1) matched += group.weight;
  });
  return 1 + (total > 0 ? coverage / total : 0) * matched;
}

const groupsArbitrary = fc.array(
  fc.record({ weight: fc.double({ min: 0, max: 2, noNaN: true }), required: fc.boolean() }),
  { minLength: 1, maxLength: 14 },
);

describe("coverageTable", () => {
  it("gives each mask its multiplier, by table or by sum, into a reused buffer or not", () => {
    const buffer = new Float64Array(1 << 12);
    fc.assert(
      fc.property(groupsArbitrary, fc.nat(), (groups, seed) => {
        const plan = planOf(groups);
        const fresh = coverageTable(plan, 0.5);
        const reused = coverageTable(plan, 0.5, Number.POSITIVE_INFINITY, buffer);
        expect(fresh.table === undefined).toBe(groups.length > 12);
        if (reused.table !== undefined) expect(reused.table).toBe(buffer);
        const required = groups.reduce(
          (mask, group, index) => (group.required ? mask | (1 << index) : mask),
          0,
        );
        expect(fresh.requiredMask).toBe(required >>> 0);
        const bits = seed % 2 ** groups.length;
        const want = expected(plan, 0.5, bits);
        expect(fresh.multiplier(bits)).toBe(want);
        expect(reused.multiplier(bits)).toBe(want);
        if (fresh.table !== undefined) expect(fresh.table[bits]).toBe(want);
      }),
      { numRuns: 300 },
    );
  });

  it("fades the coverage reward for queries longer than longQuery", () => {
    const plan = planOf([1, 1, 1, 1].map((weight) => ({ weight, required: false })));
    expect(coverageTable(plan, 0.4, 2).multiplier(0b1111)).toBeCloseTo(1 + 0.4 * (2 / 4), 12);
    expect(coverageTable(plan, 0.4).multiplier(0b0011)).toBeCloseTo(1.2, 12);
  });
});
