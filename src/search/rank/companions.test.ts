import { describe, expect, it } from "vitest";
import { type CompanionLink, placeCompanions } from "./companions.js";

const finder = (doc: number): CompanionLink => ({ doc, via: "finder", parameter: "id" });

describe("placeCompanions", () => {
  it("places the first hit's companions right after it and moves a lower one up", () => {
    const links = new Map([[1, [finder(9), finder(4)]]]);
    const { order, placedAfter } = placeCompanions([1, 2, 3, 4], links, 10, 1);
    expect(order).toEqual([1, 9, 4, 2, 3]);
    expect(placedAfter.get(9)).toBe(1);
  });

  it("leaves later hits' companions attached only, and keeps the limit", () => {
    const links = new Map([[2, [finder(9)]]]);
    expect(placeCompanions([1, 2, 3], links, 10, 1).order).toEqual([1, 2, 3]);
    expect(placeCompanions([1, 2, 3], links, 2).order).toEqual([1, 2]);
    expect(placeCompanions([1, 2, 3], links, 10).order).toEqual([1, 2, 9, 3]);
  });

  it("never puts a companion before the first hit, even one that is itself ranked lower", () => {
    const links = new Map([[1, [finder(0)]]]);
    expect(placeCompanions([1, 0], links, 5, 1).order[0]).toBe(1);
  });
});
