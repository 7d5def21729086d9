import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonWordBand, commonWordRank } from "./common-words.js";
import { stem } from "./stem.js";
import { isStopWord } from "./stop-words.js";
import { normalizeText, splitIdentifier, tokenize } from "./tokenize.js";

describe("splitIdentifier", () => {
  it.each([
    ["create_issue", ["create", "issue"]],
    ["list-merge-requests", ["list", "merge", "requests"]],
    ["browserTakeScreenshot", ["browser", "take", "screenshot"]],
    ["API-get-user", ["api", "get", "user"]],
    ["DNS_updateDNSRecordsV1", ["dns", "update", "dns", "records", "v", "1"]],
    ["mcp__github__create_issue", ["mcp", "github", "create", "issue"]],
    ["math.factorial", ["math", "factorial"]],
    ["GET_tv-tv_id-season", ["get", "tv", "tv", "id", "season"]],
    ["server:name/path", ["server", "name", "path"]],
    ["HTMLParser2Go", ["html", "parser", "2", "go"]],
    ["  spaced\twords\n", ["spaced", "words"]],
  ])("splits %s", (input, expected) => {
    expect(splitIdentifier(input)).toEqual(expected);
  });

  it("strips accents after NFKD", () => {
    expect(normalizeText("Café résumé")).toBe("Cafe resume");
    expect(splitIdentifier("crème_brûlée")).toEqual(["creme", "brulee"]);
  });

  it("splits ASCII pieces where the Unicode boundary patterns do", () => {
    // the patterns splitIdentifier applies to non-ASCII pieces, run over ASCII ones here
    const byPatterns = (piece: string) =>
      piece
        .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
        .replace(/(\p{L})(\p{N})/gu, "$1 $2")
        .replace(/(\p{N})(\p{L})/gu, "$1 $2")
        .toLowerCase()
        .split(" ")
        .filter((part) => part.length > 0);
    const piece = fc
      .array(fc.constantFrom(..."aAbBzZ09xX1Yq"), { minLength: 1, maxLength: 12 })
      .map((chars) => chars.join(""));
    fc.assert(
      fc.property(piece, (text) => {
        expect(splitIdentifier(text)).toEqual(byPatterns(text));
      }),
      { numRuns: 2000 },
    );
    expect(splitIdentifier("CreateAPIKey2FA")).toEqual(["create", "api", "key", "2", "fa"]);
  });

  it("returns nothing for punctuation only", () => {
    expect(splitIdentifier("__--..//::")).toEqual([]);
  });

  it("never yields empty or uppercase parts and never contains separators", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        for (const part of splitIdentifier(text)) {
          expect(part.length).toBeGreaterThan(0);
          expect(part).toBe(part.toLowerCase());
          expect(part).not.toMatch(/[\s_.:/-]/);
        }
      }),
    );
  });
});

describe("tokenize", () => {
  it("drops stop words and stems", () => {
    expect(tokenize("Creates a new issue in the repositories")).toEqual([
      "creat",
      "new",
      "issu",
      "repositori",
    ]);
  });

  it("can keep stop words and skip stemming", () => {
    expect(tokenize("the Running dogs", { stem: false, dropStopWords: false })).toEqual([
      "the",
      "running",
      "dogs",
    ]);
  });

  it("stems names and queries to the same token", () => {
    expect(tokenize("list_repositories")).toEqual(tokenize("listing repository"));
  });
});

describe("stem, stop words and common words", () => {
  it("stems words and leaves numbers and short words", () => {
    expect(stem("connection")).toBe("connect");
    expect(stem("42")).toBe("42");
    expect(stem("go")).toBe("go");
  });

  it("knows stop words", () => {
    expect(isStopWord("the")).toBe(true);
    expect(isStopWord("issue")).toBe(false);
  });

  it("ranks everyday words and bands them", () => {
    expect(commonWordRank("the")).toBe(0);
    expect(commonWordBand("can")).toBe(1);
    expect(commonWordBand("kubernetes")).toBe(0);
    expect(commonWordRank("kubernetes")).toBe(-1);
    expect(commonWordBand("weather")).toBeGreaterThan(commonWordBand("please"));
  });
});
