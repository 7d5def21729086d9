/** Cosine similarities of one query to the tool vectors, standardised as z-scores. */
import type { VectorMatrix } from "./tool-vectors.js";

const MIN_DEVIATION = 1e-6;

/**
 * Mean and deviation are taken over all rows, before any filter: they only put the scores on a
 * common scale, and calling a filter on every tool would cost more than the scoring itself. When
 * the matrix has `moments` they come from those, and a row is scored only when asked for (the
 * lexical hits, a few dozen); `rowsAbove` alone reads every row.
 */
export class Similarities {
  private readonly mean: number;
  private readonly deviation: number;
  private readonly fits: boolean;
  /** Every row's cosine, once some step needed all of them. */
  private cosines: Float32Array | undefined;

  constructor(
    private readonly query: Float32Array,
    private readonly matrix: VectorMatrix,
    /** False when the query may only re-rank lexical hits (it has hard constraints). */
    readonly allowAdditions: boolean,
  ) {
    this.fits = query.length === matrix.dimensions && matrix.tools.length > 0;
    let mean = 0;
    let deviation = 0;
    if (this.fits && matrix.moments) {
      ({ mean, deviation } = matrix.moments.meanAndDeviation(query));
    } else if (this.fits) {
      let sum = 0;
      let squares = 0;
      for (const value of this.allCosines()) {
        sum += value;
        squares += value * value;
      }
      mean = sum / matrix.tools.length;
      deviation = Math.sqrt(Math.max(0, squares / matrix.tools.length - mean * mean));
    }
    this.mean = mean;
    // cosines are float32, good to about 1e-7: a smaller spread is rounding noise (a catalog of
    // one repeated vector), and dividing by it would turn noise into large z-scores
    this.deviation = deviation > MIN_DEVIATION ? deviation : 1;
  }

  /** The z-score of one row (0 when the query's vector did not fit the matrix). */
  zOf(row: number): number {
    if (!this.fits || row < 0 || row >= this.matrix.tools.length) return 0;
    const value =
      this.cosines?.[row] ??
      Math.fround(dotRow(this.matrix.matrix, row * this.matrix.dimensions, this.query));
    return (value - this.mean) / this.deviation;
  }

  /** Rows whose z-score reaches `bar`, best first. */
  rowsAbove(bar: number): number[] {
    if (!this.fits) return [];
    const cosines = this.allCosines();
    const threshold = this.mean + bar * this.deviation;
    const rows: number[] = [];
    for (let row = 0; row < cosines.length; row += 1)
      if ((cosines[row] as number) >= threshold) rows.push(row);
    return rows.sort((a, b) => (cosines[b] as number) - (cosines[a] as number));
  }

  private allCosines(): Float32Array {
    if (!this.cosines) {
      const { matrix, dimensions, tools } = this.matrix;
      this.cosines = new Float32Array(tools.length);
      for (let row = 0; row < tools.length; row += 1)
        this.cosines[row] = dotRow(matrix, row * dimensions, this.query);
    }
    return this.cosines;
  }
}

/** One row · query. Four running sums let the CPU overlap the multiplies. */
function dotRow(matrix: Float32Array, offset: number, query: Float32Array): number {
  const dimensions = query.length;
  const tail = dimensions - (dimensions % 4);
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
  return a + b + c + d;
}
