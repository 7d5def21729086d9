import { describe, expect, it } from "vitest";
import { boundedEditDistance, hashString } from "../internal/index.js";
import { closestWords, didYouMean } from "./suggest.js";

describe("suggestions", () => {
  it("measures edits case-insensitively", () => {
    expect(boundedEditDistance("categry", "category", 3)).toBe(1);
    expect(boundedEditDistance("Server".toLowerCase(), "server", 3)).toBe(0);
    expect(boundedEditDistance("tga", "tag", 3)).toBe(1); // a transposition is one edit
    expect(boundedEditDistance("", "tag", 5)).toBe(3);
    expect(boundedEditDistance("", "tag", 2)).toBe(3); // past the bound: bound + 1
  });

  it("offers only close words, closest first", () => {
    expect(closestWords("codng", ["full", "minimal", "coding"])).toEqual(["coding"]);
    expect(closestWords("zzzzzz", ["full", "minimal", "coding"])).toEqual([]);
    expect(didYouMean("tga", ["tag", "name"])).toBe(' Did you mean "tag"?');
    expect(didYouMean("qqqqqq", ["tag"])).toBe("");
  });
});

describe("hashString", () => {
  it("is stable, 16 hex digits, and tells near strings apart", () => {
    expect(hashString("abc")).toBe(hashString("abc"));
    expect(hashString("abc")).toMatch(/^[0-9a-f]{16}$/);
    expect(hashString("abc")).not.toBe(hashString("abd"));
    expect(hashString("")).not.toBe(hashString(" "));
  });
});
