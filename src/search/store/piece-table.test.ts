import { describe, expect, it } from "vitest";
import { HASH_SEED, hashStep, NO_TERM, PieceTable } from "./piece-table.js";

function hashOf(text: string): number {
  let hash = HASH_SEED;
  for (let index = 0; index < text.length; index += 1)
    hash = hashStep(hash, text.charCodeAt(index));
  return hash;
}

describe("PieceTable", () => {
  it("finds pieces inside a longer text and keeps one, none or several ids per piece", () => {
    const table = new PieceTable();
    const one = table.insert("issue", hashOf("issue"), [7]);
    const none = table.insert("the", hashOf("the"), []);
    const many = table.insert("getUser", hashOf("getUser"), [3, 4]);
    const text = "the getUser issue";
    expect(table.find(text, 0, 3, hashOf("the"))).toBe(none);
    expect(table.find(text, 4, 11, hashOf("getUser"))).toBe(many);
    expect(table.find(text, 12, 17, hashOf("issue"))).toBe(one);
    expect(table.codes[one]).toBe(7);
    expect(table.codes[none]).toBe(NO_TERM);
    expect(table.idsOf(table.codes[many] as number)).toEqual([3, 4]);
    expect(table.find("issues", 0, 6, hashOf("issues"))).toBe(-1);
  });

  it("tells apart pieces with the same hash and survives growth", () => {
    const table = new PieceTable();
    table.insert("abc", 42, [1]);
    table.insert("abd", 42, [2]);
    table.insert("ab", 42, [3]);
    for (let index = 0; index < 5_000; index += 1) {
      table.insert(`w${index}`, hashOf(`w${index}`), [100 + index]);
    }
    expect(table.size).toBe(5_003);
    expect(table.codes[table.find("xabd", 1, 4, 42)]).toBe(2);
    expect(table.codes[table.find("ab", 0, 2, 42)]).toBe(3);
    expect(table.find("abe", 0, 3, 42)).toBe(-1);
    expect(table.codes[table.find("w4999", 0, 5, hashOf("w4999"))]).toBe(5_099);
  });
});
