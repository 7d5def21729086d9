/**
 * The mean and deviation of a query's cosines over every tool, without scoring every tool.
 *
 * The mean of `q · v` over the rows is `q · centroid`, and the mean of `(q · v)²` is `qᵀ M q` with
 * `M` the average of `v vᵀ`. Both are exact (up to rounding) and cost d and d² per query instead
 * of n × d: at 10,000 tools of 100 dimensions, 10,000 multiply-adds instead of a million.
 * Building `M` costs n × d² / 2 once per catalog version, so it is kept only where a query pays
 * for it (d < n) and the build stays short (see `MAX_BUILD_WORK`).
 */

// n × d² / 2 multiply-adds, at most: about a quarter of a second (100 dimensions, 50,000 tools);
// beyond it, and for wide vectors, every query scans all rows as before
const MAX_BUILD_WORK = 2 ** 28;

/** Per-catalog sums that give any query's cosine mean and deviation in O(d²). */
export class CosineMoments {
  private constructor(
    private readonly centroid: Float64Array,
    /** Average of v vᵀ, row-major d × d; only the upper triangle (j ≥ i) is filled. */
    private readonly second: Float64Array,
    private readonly dimensions: number,
  ) {}

  /** The moments of `rows` unit vectors, or undefined when scanning is as cheap or the build too long. */
  static of(matrix: Float32Array, rows: number, dimensions: number): CosineMoments | undefined {
    if (rows <= dimensions || (rows * dimensions * dimensions) / 2 > MAX_BUILD_WORK)
      return undefined;
    const centroid = new Float64Array(dimensions);
    const second = new Float64Array(dimensions * dimensions);
    for (let row = 0, offset = 0; row < rows; row += 1, offset += dimensions) {
      for (let i = 0; i < dimensions; i += 1) {
        const value = matrix[offset + i] as number;
        if (value === 0) continue;
        centroid[i] = (centroid[i] as number) + value;
        const base = i * dimensions;
        for (let j = i; j < dimensions; j += 1)
          second[base + j] = (second[base + j] as number) + value * (matrix[offset + j] as number);
      }
    }
    for (let i = 0; i < dimensions; i += 1) {
      centroid[i] = (centroid[i] as number) / rows;
      for (let j = i; j < dimensions; j += 1)
        second[i * dimensions + j] = (second[i * dimensions + j] as number) / rows;
    }
    return new CosineMoments(centroid, second, dimensions);
  }

  /** Mean and standard deviation of `query · v` over the rows (query of the same length). */
  meanAndDeviation(query: Float32Array): { mean: number; deviation: number } {
    const d = this.dimensions;
    let mean = 0;
    let square = 0;
    for (let i = 0; i < d; i += 1) {
      const qi = query[i] as number;
      mean += qi * (this.centroid[i] as number);
      // M is symmetric: each pair i < j counts twice, so half the matrix is read
      const base = i * d;
      let inner = 0;
      for (let j = i + 1; j < d; j += 1)
        inner += (this.second[base + j] as number) * (query[j] as number);
      square += qi * ((this.second[base + i] as number) * qi + 2 * inner);
    }
    return { mean, deviation: Math.sqrt(Math.max(0, square - mean * mean)) };
  }
}
