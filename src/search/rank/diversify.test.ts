import { describe, expect, it } from "vitest";
import { diversifyByAspect } from "./diversify.js";

describe("diversifyByAspect", () => {
  it("moves a hit for an uncovered part of the request above a repeat of a covered part", () => {
    // docs 0 and 1 match query word 0 (bit 1); doc 2 matches query word 1 (bit 2)
    const score = new Float32Array([10, 9, 8]);
    const mask = new Uint32Array([1, 1, 2]);
    const before = (a: number, b: number) => (score[a] as number) > (score[b] as number);
    const order = diversifyByAspect([0, 1, 2], 3, score, mask, [1, 1], 0.3, before);
    expect(order).toEqual([0, 2, 1]);
    // adjusted scores stay in descending order
    expect(order.map((doc) => score[doc])).toEqual([10, 8, 9 * 0.7].map(Math.fround));
  });

  it("keeps the plain order when λ is 0", () => {
    const score = new Float32Array([10, 9, 8]);
    const mask = new Uint32Array([1, 1, 2]);
    const before = (a: number, b: number) => (score[a] as number) > (score[b] as number);
    expect(diversifyByAspect([0, 1, 2], 2, score, mask, [1, 1], 0, before)).toEqual([0, 1]);
  });
});
