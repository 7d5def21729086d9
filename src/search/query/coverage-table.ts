/** The coverage multipliers of a query: how much a document gains for matching more of its words. */

import type { QueryGroup, QueryPlan } from "./query-terms.js";

/** Groups from this index on share the top bit of the 32-bit match mask. */
const LAST_GROUP_BIT = 31;

/** A query group's bit in a document's match mask. */
export function groupBit(group: number): number {
  return 2 ** Math.min(group, LAST_GROUP_BIT);
}

/** Queries with at most this many groups get a lookup table of their multipliers. */
const TABLE_GROUPS = 12;

/** Coverage multipliers `1 + coverage · matched weight / total weight`, by match mask. */
export class CoverageTable {
  /** The groups every hit must match (`+word`), as mask bits. */
  readonly requiredMask: number;
  /** The multipliers indexed by mask when the query has at most 12 groups (read it directly in hot loops). */
  readonly table: Float64Array | undefined;
  private readonly groups: readonly QueryGroup[];
  private readonly factor: number;

  /** See `coverageTable`. */
  constructor(plan: QueryPlan, coverage: number, longQuery: number, into?: Float64Array) {
    const groups = plan.groups;
    let requiredMask = 0;
    let total = 0;
    for (let index = 0; index < groups.length; index += 1) {
      const group = groups[index] as QueryGroup;
      if (group.required) requiredMask |= groupBit(index);
      total += group.weight;
    }
    this.requiredMask = requiredMask >>> 0;
    // long requests often ask for several tools at once; rewarding full coverage then misleads
    const fade = groups.length > longQuery ? longQuery / groups.length : 1;
    this.factor = total > 0 ? (coverage * fade) / total : 0;
    this.groups = groups;
    if (groups.length > TABLE_GROUPS) {
      this.table = undefined;
      return;
    }
    const size = 1 << groups.length;
    const table = into !== undefined && into.length >= size ? into : new Float64Array(size);
    for (let bits = 0; bits < size; bits += 1) table[bits] = this.sum(bits);
    this.table = table;
  }

  /** The multiplier of a document whose match mask is `bits`. */
  multiplier(bits: number): number {
    return this.table !== undefined ? (this.table[bits] as number) : this.sum(bits);
  }

  private sum(bits: number): number {
    let matched = 0;
    let rest = bits;
    while (rest !== 0) {
      const low = rest & -rest;
      matched += this.groups[31 - Math.clz32(low)]?.weight ?? 0;
      rest = (rest ^ low) >>> 0;
    }
    return 1 + this.factor * matched;
  }
}

/**
 * Builds the coverage multipliers of a plan; a lookup table when the query has few words, written
 * into `into` when it is large enough (a buffer reused across queries; valid until the next one).
 */
export function coverageTable(
  plan: QueryPlan,
  coverage: number,
  longQuery = Number.POSITIVE_INFINITY,
  into?: Float64Array,
): CoverageTable {
  return new CoverageTable(plan, coverage, longQuery, into);
}
