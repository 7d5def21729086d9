/** Retrieval metrics over labelled queries (recall@k, MRR, nDCG@10); pure, used by `toolsift eval`. */

/** One labelled query: the tools a correct answer contains. */
export interface EvalQuery {
  id: string;
  query: string;
  relevant: string[];
}

/** Anything that ranks tool names for a query (a `ToolSearchIndex`, a baseline). */
export interface Ranker {
  rank(query: string, k: number): string[];
}

/** Metrics for one query. */
export interface QueryEvaluation {
  id: string;
  ranked: string[];
  recallAt: Record<1 | 3 | 5 | 10, number>;
  reciprocalRank: number;
  ndcgAt10: number;
}

/** Averaged metrics. */
export interface Evaluation {
  count: number;
  recallAt: Record<1 | 3 | 5 | 10, number>;
  mrr: number;
  ndcgAt10: number;
  perQuery?: QueryEvaluation[];
}

const CUTOFFS = [1, 3, 5, 10] as const;

/** Scores one ranked list against its relevant set. */
export function evaluateRanking(id: string, ranked: string[], relevant: string[]): QueryEvaluation {
  const wanted = new Set(relevant);
  const recallAt = { 1: 0, 3: 0, 5: 0, 10: 0 };
  for (const k of CUTOFFS) {
    const found = ranked.slice(0, k).filter((name) => wanted.has(name)).length;
    recallAt[k] = wanted.size === 0 ? 0 : found / wanted.size;
  }
  const first = ranked.findIndex((name) => wanted.has(name));
  let dcg = 0;
  ranked.slice(0, 10).forEach((name, index) => {
    if (wanted.has(name)) dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(10, wanted.size); index += 1)
    ideal += 1 / Math.log2(index + 2);
  return {
    id,
    ranked,
    recallAt,
    reciprocalRank: first < 0 || first >= 10 ? 0 : 1 / (first + 1),
    ndcgAt10: ideal === 0 ? 0 : dcg / ideal,
  };
}

/**
 * Evaluates a ranker. Recall@k is |relevant ∩ top k| / |relevant|, averaged over queries (so a
 * query with three relevant tools and two found in the top k scores 2/3). MRR counts the first
 * relevant tool within the top 10; nDCG@10 uses binary gains. Queries with no relevant tools are
 * skipped.
 */
export function evaluate(
  ranker: Ranker,
  queries: readonly EvalQuery[],
  options?: { perQuery?: boolean },
): Evaluation {
  const results: QueryEvaluation[] = [];
  for (const query of queries) {
    if (query.relevant.length === 0) continue;
    results.push(evaluateRanking(query.id, ranker.rank(query.query, 10), query.relevant));
  }
  const count = results.length;
  const mean = (pick: (result: QueryEvaluation) => number) =>
    count === 0 ? 0 : results.reduce((sum, result) => sum + pick(result), 0) / count;
  const evaluation: Evaluation = {
    count,
    recallAt: {
      1: mean((r) => r.recallAt[1]),
      3: mean((r) => r.recallAt[3]),
      5: mean((r) => r.recallAt[5]),
      10: mean((r) => r.recallAt[10]),
    },
    mrr: mean((r) => r.reciprocalRank),
    ndcgAt10: mean((r) => r.ndcgAt10),
  };
  if (options?.perQuery) evaluation.perQuery = results;
  return evaluation;
}
