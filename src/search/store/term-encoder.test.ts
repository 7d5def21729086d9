import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameSuffix } from "../../internal/index.js";
import { STOP_WORDS, splitIdentifier, stem, tokenize } from "../../text/index.js";
import { hashFrom } from "./hashed-ids.js";
import { PostingStore } from "./posting-store.js";
import { TermEncoder } from "./term-encoder.js";

function expectedPhrase(name: string): string {
  return splitIdentifier(nameSuffix(name))
    .filter((word) => !STOP_WORDS.has(word))
    .map((word) => stem(word))
    .join(" ");
}

describe("TermEncoder.namePhraseHash", () => {
  const store = new PostingStore({ weights: [1, 1, 1, 1, 1, 1, 1, 1], b: [], k1: 1.2 });
  const encoder = new TermEncoder(store);
  const tool = (name: string) => ({ name, description: "", inputSchema: { type: "object" } });

  it("equals the stemmed words of the name after its namespace, stop words left out", () => {
    const names = [
      "mcp__github__create_issue",
      "mcp__server7__get_the_issue_42",
      "files.readAll",
      "dns/updateDNSRecordsV1",
      "ns:list-of-items",
      "mcp__x__",
      "plain",
      "the",
      "a__b__c_d",
      "getHTTPResponseCode",
    ];
    for (const name of names) {
      encoder.encode(tool(name), true);
      expect(encoder.namePhraseHash(), name).toBe(hashFrom(expectedPhrase(name)));
    }
  });

  it("is left to the caller for non-ASCII names and when compounds are off", () => {
    encoder.encode(tool("mcp__café__créer_issue"), true);
    expect(encoder.namePhraseHash()).toBeUndefined();
    encoder.encode(tool("mcp__github__create_issue"), false);
    expect(encoder.namePhraseHash()).toBeUndefined();
  });
});

describe("TermEncoder.encode", () => {
  const store = new PostingStore({ weights: [1, 1, 1, 1, 1, 1, 1, 1], b: [], k1: 1.2 });
  const encoder = new TermEncoder(store);
  /** The terms of one field of the last encoding. */
  const fieldTerms = (field: number) => {
    const { ids, bounds } = encoder.encode(
      { name: "tool", description: text, inputSchema: { type: "object", properties } },
      true,
    );
    return Array.from(ids.subarray(bounds[field], bounds[field + 1]), (id) => store.terms[id]);
  };
  let text = "";
  let properties: Record<string, unknown> = {};

  it("reads text with non-ASCII characters as the tokens of the whole text", () => {
    // ASCII runs are cut in place and only runs with a non-ASCII character are normalised: the
    // terms must be those of normalising and splitting the whole field
    const char = fc.constantFrom(
      ..."aZ9 _-.q\u0000\u007f\tX",
      "é",
      "e\u0301",
      "\u0301",
      "ﬁ",
      "½",
      "…",
      "\u00a0",
      "ｒ",
      "한",
      "😀",
      "İ",
    );
    const texts = fc.array(char, { maxLength: 24 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(texts, fc.array(texts, { maxLength: 3 }), (description, parameters) => {
        text = description;
        properties = Object.fromEntries(
          parameters.map((item, index) => [`p${index}`, { description: item }]),
        );
        expect(fieldTerms(4)).toEqual(tokenize(description, { stem: false }));
        expect(fieldTerms(6)).toEqual(tokenize(parameters.join(" "), { stem: false }));
      }),
      { numRuns: 2000 },
    );
  });
});
