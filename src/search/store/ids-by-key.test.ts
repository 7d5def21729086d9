import { describe, expect, it } from "vitest";
import { IdsByKey } from "./ids-by-key.js";

describe("IdsByKey", () => {
  it("keeps ids per key in insertion order through adds and deletes", () => {
    const ids = new IdsByKey();
    expect(ids.get("a")).toEqual([]);
    ids.add("a", 3);
    expect(ids.get("a")).toEqual([3]);
    ids.add("a", 1);
    ids.add("a", 7);
    ids.add("b", 2);
    expect(ids.get("a")).toEqual([3, 1, 7]);
    ids.delete("a", 1);
    expect(ids.get("a")).toEqual([3, 7]);
    ids.delete("a", 3);
    expect(ids.get("a")).toEqual([7]);
    ids.delete("a", 9);
    expect(ids.get("a")).toEqual([7]);
    ids.delete("a", 7);
    expect(ids.get("a")).toEqual([]);
    ids.delete("b", 5);
    expect(ids.get("b")).toEqual([2]);
    ids.delete("b", 2);
    expect(ids.get("b")).toEqual([]);
  });
});
