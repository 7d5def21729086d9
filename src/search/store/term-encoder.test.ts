import { describe, expect, it } from "vitest";
import { nameSuffix } from "../../internal/index.js";
import { STOP_WORDS, splitIdentifier, stem } from "../../text/index.js";
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
