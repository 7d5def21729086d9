/** Cosine similarities of one query to every tool vector, standardised as z-scores. */

import type { VectorMatrix } from "./tool-vectors.js";

/**
 * Scores every row once (unit vectors, so the dot product is the cosine). Mean and deviation are
 * taken over all rows, before any filter: they only put the scores on a common scale, and
 * calling a filter on every tool would cost more than the scoring itself.
 */
export class Similarities {
  private readonly cosines: Float32Array;
  private readonly mean: number;
  private readonly deviation: number;

  constructor(
    query: Float32Array,
    matrix: VectorMatrix,
    /** False when the query may only re-rank lexical hits (it has hard constraints). */
    readonly allowAdditions: boolean,
  ) {
    const rows = matrix.tools.length;
    const { dimensions } = matrix;
    this.cosines = new Float32Array(query.length === dimensions ? rows : 0);
    if (this.cosines.length > 0) dotAll(matrix.matrix, query, this.cosines, dimensions);
    let sum = 0;
    let squares = 0;
    for (const value of this.cosines) {
      sum += value;
      squares += value * value;
    }
    const count = Math.max(1, this.cosines.length);
    this.mean = sum / count;
    this.deviation = Math.sqrt(Math.max(0, squares / count - this.mean * this.mean)) || 1;
  }

  /** The z-score of one row (0 when the query's vector did not fit the matrix). */
  zOf(row: number): number {
    const value = this.cosines[row];
    return value === undefined ? 0 : (value - this.mean) / this.deviation;
  }

  /** Rows whose z-score reaches `bar`, best first. */
  rowsAbove(bar: number): number[] {
    const threshold = this.mean + bar * this.deviation;
    const rows: number[] = [];
    this.cosines.forEach((value, row) => {
      if (value >= threshold) rows.push(row);
    });
    return rows.sort((a, b) => (this.cosines[b] as number) - (this.cosines[a] as number));
  }
}

/** out[r] = row r · query. Four running sums per row let the CPU overlap the multiplies. */
function dotAll(
  matrix: Float32Array,
  query: Float32Array,
  out: Float32Array,
  dimensions: number,
): void {
  const tail = dimensions - (dimensions % 4);
  for (let row = 0, offset = 0; row < out.length; row += 1, offset += dimensions) {
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let index = 0; index < tail; index += 4) {
      a += (matrix[offset + index] as number) * (query[index] as number);
      b += (matrix[offset + index + 1] as number) * (query[index + 1] as number);
      c += (matrix[offset + index + 2] as number) * (query[index + 2] as number);
      d += (matrix[offset + index + 3] as number) * (query[index + 3] as number);
    }
    for (let index = tail; index < dimensions; index += 1)
      a += (matrix[offset + index] as number) * (query[index] as number);
    out[row] = a + b + c + d;
  }
}
