import { describe, expect, it } from "vitest";
import { disclosureInWords } from "./disclosure-words.js";

describe("disclosureInWords", () => {
  it("says the ceiling reason in words with formatted numbers (issue 24)", () => {
    const text = disclosureInWords(
      "auto: deferrable definitions take 743765 tokens (ceiling 20000)",
    );
    expect(text).toBe(
      "Search is on: the tools toolsift can hold back take 743,765 tokens, more than the 20,000 it sends whole, so the model gets a search tool and loads what it finds.",
    );
    expect(text).not.toMatch(/auto:|ceiling/);
  });

  it.each([
    ["mode off: every visible tool is loaded", /^Search is off \(mode "off"\)/],
    ["mode on: 1 tools deferred", /1 tool waits behind/],
    [
      "auto: 200 visible tools, over the provider's limit of 128 tools per request",
      /200 visible tools are more than .*\(128\)/,
    ],
    [
      "auto: below threshold (12 visible tools < 30; 3715 tokens < 20000)",
      /small enough .*3,715 tokens < 20,000/,
    ],
  ])("says %s in words", (reason, expected) => {
    expect(disclosureInWords(reason)).toMatch(expected);
  });

  it("keeps a reason it does not know as it is", () => {
    expect(disclosureInWords("something new")).toBe("something new");
  });
});
