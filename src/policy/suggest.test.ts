import { describe, expect, it } from "vitest";
import { hashString } from "./hash.js";
import { closestWords, didYouMean, editDistance } from "./suggest.js";

describe("suggestions", () => {
  it("measures edits case-insensitively", () => {
    expect(editDistance("categry", "category")).toBe(1);
    expect(editDistance("Server", "server")).toBe(0);
    expect(editDistance("", "tag")).toBe(3);
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
