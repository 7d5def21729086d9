import { describe, expect, it } from "vitest";
import { CosineMoments } from "./cosine-moments.js";
import { normalizeVector } from "./embedder.js";
import { Similarities } from "./similarities.js";
import type { VectorMatrix } from "./tool-vectors.js";

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** `rows` unit vectors sharing a common direction, as averaged word vectors do. */
function matrixOf(rows: number, dimensions: number, seed: number, moments: boolean): VectorMatrix {
  const random = seeded(seed);
  const matrix = new Float32Array(rows * dimensions);
  for (let row = 0; row < rows; row += 1) {
    const vector = Float32Array.from(
      { length: dimensions },
      (_, i) => random() - 0.5 + 1 / (i + 1),
    );
    matrix.set(normalizeVector(vector), row * dimensions);
  }
  const tools = Array.from({ length: rows }, (_, row) => ({
    name: `t${row}`,
    description: "",
    inputSchema: { type: "object" as const },
  }));
  const built = CosineMoments.of(matrix, rows, dimensions);
  return {
    tools,
    rowOf: new Map(tools.map((tool, row) => [tool.name, row])),
    matrix,
    dimensions,
    ...(moments && built ? { moments: built } : {}),
  };
}

const queryOf = (dimensions: number, seed: number) => {
  const random = seeded(seed);
  return normalizeVector(Float32Array.from({ length: dimensions }, () => random() - 0.3));
};

describe("CosineMoments", () => {
  it("is built only when it is cheaper than scanning (more rows than dimensions)", () => {
    expect(matrixOf(12, 16, 1, true).moments).toBeUndefined();
    expect(matrixOf(40, 16, 1, true).moments).toBeInstanceOf(CosineMoments);
  });

  it("gives every query the z-scores a full scan gives", () => {
    for (const [rows, dimensions] of [
      [300, 16],
      [200, 37],
    ] as const) {
      const fast = matrixOf(rows, dimensions, rows, true);
      const slow = matrixOf(rows, dimensions, rows, false);
      expect(fast.moments).toBeDefined();
      for (let seed = 1; seed <= 20; seed += 1) {
        const query = queryOf(dimensions, seed);
        const a = new Similarities(query, fast, true);
        const b = new Similarities(query, slow, true);
        for (let row = 0; row < rows; row += 17) expect(a.zOf(row)).toBeCloseTo(b.zOf(row), 6);
        expect(a.rowsAbove(1.5)).toEqual(b.rowsAbove(1.5));
      }
    }
  });
});

describe("Similarities", () => {
  it("scores 0 for a query of the wrong length, and for rows outside the matrix", () => {
    const matrix = matrixOf(40, 16, 3, true);
    const wrong = new Similarities(queryOf(8, 1), matrix, true);
    expect(wrong.zOf(0)).toBe(0);
    expect(wrong.rowsAbove(0)).toEqual([]);
    const right = new Similarities(queryOf(16, 1), matrix, true);
    expect(right.zOf(-1)).toBe(0);
    expect(right.zOf(40)).toBe(0);
    expect(right.rowsAbove(-100)).toHaveLength(40);
  });

  it("gives z 0 to every tool when all vectors are the same (no spread, only rounding)", () => {
    for (let seed = 1; seed <= 5; seed += 1) {
      const vector = normalizeVector(
        Float32Array.from({ length: 100 }, (_, i) => Math.sin(i * seed + 1)),
      );
      const base = matrixOf(300, 100, seed, false);
      for (let row = 0; row < 300; row += 1) base.matrix.set(vector, row * 100);
      const moments = CosineMoments.of(base.matrix, 300, 100);
      const query = normalizeVector(
        Float32Array.from({ length: 100 }, (_, i) => Math.cos(i * 3 + seed)),
      );
      for (const matrix of [base, { ...base, ...(moments ? { moments } : {}) }]) {
        const scores = new Similarities(query, matrix, true);
        expect(Math.abs(scores.zOf(7))).toBeLessThan(1e-3);
        expect(scores.rowsAbove(0.5)).toEqual([]);
      }
    }
  });
});
