/**
 * Aspect diversification for requests that ask for several things at once: a hit whose matched
 * query words are already covered by higher hits is pushed down, so each part of the request gets
 * its tool into the top k instead of five variants of the first part.
 */

function maskWeight(bits: number, weights: readonly number[]): number {
  let total = 0;
  let rest = bits >>> 0;
  while (rest !== 0) {
    const low = rest & -rest;
    total += weights[31 - Math.clz32(low)] ?? 0;
    rest = (rest ^ low) >>> 0;
  }
  return total;
}

/**
 * Greedily picks `k` of `pool` (already in score order): each step takes the document with the
 * best `score · (1 − λ · covered share of its matched words)`, and writes that adjusted score back
 * into `score`, so the returned order is still by (adjusted) score. `before` breaks ties.
 */
export function diversifyByAspect(
  pool: readonly number[],
  k: number,
  score: Float32Array,
  mask: Uint32Array,
  weights: readonly number[],
  lambda: number,
  before: (a: number, b: number) => boolean,
): number[] {
  const remaining = [...pool];
  const chosen: number[] = [];
  let covered = 0;
  const base = new Map(pool.map((doc) => [doc, score[doc] as number]));
  while (chosen.length < k && remaining.length > 0) {
    let bestIndex = 0;
    for (let index = 0; index < remaining.length; index += 1) {
      const doc = remaining[index] as number;
      const bits = mask[doc] as number;
      const matched = maskWeight(bits, weights);
      const overlap = matched > 0 ? maskWeight((bits & covered) >>> 0, weights) / matched : 0;
      score[doc] = (base.get(doc) ?? 0) * (1 - lambda * overlap);
      if (index > 0 && before(doc, remaining[bestIndex] as number)) bestIndex = index;
    }
    const [doc] = remaining.splice(bestIndex, 1) as [number];
    chosen.push(doc);
    covered = (covered | (mask[doc] as number)) >>> 0;
  }
  return chosen;
}
