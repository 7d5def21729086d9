import { describe, expect, it } from "vitest";
import { didYouMean, suggestNames } from "./did-you-mean.js";
import { boundedEditDistance } from "./edit-distance.js";
import { hashString } from "./hash.js";

describe("suggestNames", () => {
  it("measures edits case-insensitively", () => {
    expect(boundedEditDistance("categry", "category", 3)).toBe(1);
    expect(boundedEditDistance("Server".toLowerCase(), "server", 3)).toBe(0);
    expect(boundedEditDistance("tga", "tag", 3)).toBe(1); // a transposition is one edit
    expect(boundedEditDistance("", "tag", 5)).toBe(3);
    expect(boundedEditDistance("", "tag", 2)).toBe(3); // past the bound: bound + 1
  });

  it("offers only close words, closest first", () => {
    const words = (word: string) =>
      suggestNames(word, ["full", "minimal", "coding"], { suffixes: false });
    expect(words("codng")).toEqual(["coding"]);
    expect(words("zzzzzz")).toEqual([]);
    expect(didYouMean("tga", ["tag", "name"])).toBe(' Did you mean "tag"?');
    expect(didYouMean("qqqqqq", ["tag"])).toBe("");
  });

  it("ranks an exact match, then a name ending after a separator, then by edits, then by name", () => {
    const names = ["mcp__x__ask_codex", "ask_codec", "ASK_CODEX", "ask_codexx", "zzz"];
    expect(suggestNames("ask_codex", names, { max: 5 })).toEqual([
      "ASK_CODEX",
      "mcp__x__ask_codex",
      "ask_codec",
      "ask_codexx",
    ]);
    // the reverse: the unknown name carries a namespace the known one lacks
    expect(suggestNames("mcp__y__read_file", ["read_file", "write_file"])).toEqual(["read_file"]);
  });

  it("leaves the separator rule out with suffixes: false", () => {
    expect(suggestNames("ask_codex", ["mcp__x__ask_codex"], { suffixes: false })).toEqual([]);
  });

  it("caps the answer at max, trims the unknown name, and answers nothing for an empty one", () => {
    expect(suggestNames(" tagg ", ["tag", "tags", "togg"], { max: 2 })).toEqual(["tag", "tags"]);
    expect(suggestNames("   ", ["a", "b"])).toEqual([]);
    expect(suggestNames("tag", [])).toEqual([]);
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
