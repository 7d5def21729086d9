import { describe, expect, it } from "vitest";
import { capChars, safeCutIndex, safeHead, safeSlice, safeTail } from "./safe-cut.js";

describe("safe cuts", () => {
  it("move a cut off the middle of a pair, down by default and up on request", () => {
    const text = "ab😀cd"; // the pair sits at 2..3
    expect(safeCutIndex(text, 3)).toBe(2);
    expect(safeCutIndex(text, 3, true)).toBe(4);
    expect(safeCutIndex(text, 2)).toBe(2);
    expect(safeCutIndex(text, 99)).toBe(text.length);
    expect(safeHead(text, 3)).toBe("ab");
    expect(safeTail(text, 3)).toBe("cd");
    expect(safeSlice(text, 3, 5)).toBe("c");
    // a lone half is not a pair: cutting beside it is allowed
    expect(safeCutIndex("a\ud800b", 2)).toBe(2);
    expect(capChars("😀😀😀", 4)).toBe("😀…");
  });
});
