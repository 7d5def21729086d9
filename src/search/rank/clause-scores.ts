/**
 * Clause fusion for multi-part requests (`split-clauses.ts`): each clause is scored from the
 * same postings pass as the whole request (`accumulate` adds each posting's value to the rows of
 * its word's clauses), with its own coverage, and a tool's score becomes the better of its whole
 * score and `clauseWeight` × the best whole score × its clause score over that clause's best. So
 * each clause's best tool ranks at least at `clauseWeight` of the first hit, and a part of the
 * request whose words are few or common still gets a place in the top k.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { type CoverageTable, coverageTable } from "../query/coverage-table.js";
import type { QueryPlan } from "../query/query-terms.js";
import type { ScoreScratch } from "./score-query.js";
import { TopK } from "./top-k.js";

/** Per-clause score rows, one row of `stride` documents per clause, filled by `accumulate`. */
export class ClauseRows {
  rows = new Float32Array(0);
  stride = 0;
  count = 0;

  /** Makes room for `count` clauses of `size` documents (rows are zeroed on a document's first touch). */
  begin(count: number, size: number): void {
    if (this.rows.length < count * size) this.rows = new Float32Array(count * size * 2);
    this.stride = size;
    this.count = count;
  }
}

/** Adds `value` to `doc`'s row of every clause in `bits`. */
export function addToClauses(clauses: ClauseRows, bits: number, doc: number, value: number): void {
  const { rows, stride } = clauses;
  let rest = bits;
  while (rest !== 0) {
    const low = rest & -rest;
    const at = (31 - Math.clz32(low)) * stride + doc;
    rows[at] = (rows[at] as number) + value;
    rest = (rest ^ low) >>> 0;
  }
}

/** Zeroes `doc`'s row in every clause (its first touch in this query). */
export function clearClauses(clauses: ClauseRows, doc: number): void {
  const { rows, stride, count } = clauses;
  for (let clause = 0; clause < count; clause += 1) rows[clause * stride + doc] = 0;
}

/** The coverage multipliers of each clause: its own words' weight is the whole. */
export function clauseCoverages(plan: QueryPlan, count: number, coverage: number): CoverageTable[] {
  const tables: CoverageTable[] = [];
  for (let clause = 0; clause < count; clause += 1) {
    const bit = 2 ** clause;
    const groups = plan.groups.map((group) =>
      ((group.clauses ?? 0) & bit) !== 0
        ? { token: group.token, weight: group.weight, required: false }
        : { token: group.token, weight: 0, required: false },
    );
    tables.push(coverageTable({ groups, terms: [], stems: [] }, coverage));
  }
  return tables;
}

/** What `rankClauses` needs besides the scratch. */
export interface ClauseFusion {
  clauses: ClauseRows;
  tables: readonly CoverageTable[];
  weight: number;
  /** `clauseDamping` (see `RankingConfig`). */
  damping: number;
  /** The indexed tools (ties go by name). */
  tools: readonly (ToolDefinition | undefined)[];
  /** Set by `rankClauses`: each clause's best documents with the score fusion gives them. */
  candidates?: ClauseCandidate[];
}

/** A document one clause ranks high, and the score it gets beside the whole request's hits. */
export interface ClauseCandidate {
  doc: number;
  score: number;
}

/**
 * Documents each clause offers to the fused ranking: its best. Its next two as well changed macro
 * R@5 by −0.0001 on both bench halves.
 */
const CLAUSE_CANDIDATES = 1;

/**
 * `rankTouched` for a request split into clauses: the same whole scores, filters, `rejects` and
 * top k, and each clause's best documents as `fusion.candidates`. Returns the best score.
 */
export function rankClauses(
  scratch: ScoreScratch,
  count: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  top: TopK,
  rejects: ((doc: number) => boolean) | undefined,
  fusion: ClauseFusion,
): number {
  const { score, touched } = scratch;
  const { rows, stride } = fusion.clauses;
  const tops = fusion.tables.map(
    (_, clause) =>
      new TopK(
        CLAUSE_CANDIDATES,
        rows.subarray(clause * stride, (clause + 1) * stride),
        fusion.tools,
      ),
  );
  const bests = scoreClauses(scratch, count, coverage, anyExcluded, rejects, fusion, tops);
  const best = bests[0] as number;
  const candidates: ClauseCandidate[] = [];
  tops.forEach((clauseTop, clause) => {
    const clauseBest = bests[clause + 1] as number;
    if (clauseBest <= 0 || best <= 0) return;
    // a clause of common words (an aside: "I'm eager to learn more") scores low on the whole's
    // scale, and earns a lower place than one naming its task
    const scale =
      ((fusion.weight * best) / clauseBest) * Math.min(1, clauseBest / best) ** fusion.damping;
    for (const doc of clauseTop.finish([])) {
      candidates.push({ doc, score: (rows[clause * stride + doc] as number) * scale });
    }
  });
  fusion.candidates = candidates;
  for (let index = 0; index < count; index += 1) {
    const doc = touched[index] as number;
    const value = score[doc] as number;
    if (value < 0 || value < top.floor) continue;
    if (rejects?.(doc)) continue;
    top.offer(doc);
  }
  return best;
}

/**
 * The first pass of `rankClauses`: each touched document's whole score times its coverage (or
 * -1 when filtered out), and its clause scores times their coverage, in place; documents
 * `rejects` lets through are offered to their clauses' `tops`. Returns the best whole score and
 * then each clause's best.
 */
function scoreClauses(
  scratch: ScoreScratch,
  count: number,
  coverage: CoverageTable,
  anyExcluded: boolean,
  rejects: ((doc: number) => boolean) | undefined,
  fusion: ClauseFusion,
  tops: readonly TopK[],
): number[] {
  const { score, mask, excluded, touched } = scratch;
  const { rows, stride } = fusion.clauses;
  const { tables } = fusion;
  const requiredMask = coverage.requiredMask;
  const filtered = requiredMask !== 0 || anyExcluded;
  const bests = new Array<number>(tables.length + 1).fill(0);
  for (let index = 0; index < count; index += 1) {
    const doc = touched[index] as number;
    const bits = mask[doc] as number;
    if (
      filtered &&
      ((bits & requiredMask) >>> 0 !== requiredMask || excluded[doc] === scratch.epoch)
    ) {
      score[doc] = -1;
      continue;
    }
    score[doc] = (score[doc] as number) * coverage.multiplier(bits);
    let better = (score[doc] as number) > (bests[0] as number);
    for (let clause = 0; clause < tables.length; clause += 1) {
      const at = clause * stride + doc;
      rows[at] = (rows[at] as number) * (tables[clause] as CoverageTable).multiplier(bits);
      better ||= (rows[at] as number) >= (tops[clause] as TopK).floor && (rows[at] as number) > 0;
    }
    if (!better || rejects?.(doc)) continue;
    bests[0] = Math.max(bests[0] as number, score[doc] as number);
    for (let clause = 0; clause < tables.length; clause += 1) {
      const value = rows[clause * stride + doc] as number;
      bests[clause + 1] = Math.max(bests[clause + 1] as number, value);
      if (value > 0) (tops[clause] as TopK).offer(doc);
    }
  }
  return bests;
}

/**
 * Fuses the clause candidates into `selected` (the whole request's hits in order, after
 * diversification; `pool` the documents it was chosen from): a candidate takes the better of its
 * clause score and its own score when it was in the pool. Returns the new order.
 */
export function fuseClauses(
  selected: readonly number[],
  pool: ReadonlySet<number>,
  candidates: readonly ClauseCandidate[],
  score: Float32Array,
  before: (a: number, b: number) => boolean,
  lifted: Map<number, number> | undefined,
): number[] {
  const order = [...selected];
  for (const { doc, score: value } of candidates) {
    const own = pool.has(doc) ? (score[doc] as number) : Number.NEGATIVE_INFINITY;
    if (value <= own) continue;
    score[doc] = value;
    lifted?.set(doc, score[doc] as number);
    if (!order.includes(doc)) order.push(doc);
  }
  return order.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}
