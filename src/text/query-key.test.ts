import { describe, expect, it } from "vitest";
import { isQueryKey, MAX_KEY_WORDS, queryKey } from "./query-key.js";

describe("queryKey", () => {
  it("keys a query by its distinct stemmed words, whatever their order, repeats and stop words", () => {
    expect(queryKey("list my repositories")).toBe("list repositori");
    expect(queryKey("Repositories: list, list the repositories")).toBe("list repositori");
    expect(isQueryKey(queryKey("list my repositories"))).toBe(true);
    expect(isQueryKey("repositori")).toBe(false);
  });

  it("has no key for one word (the word itself is evidence) or for a request too long to recur", () => {
    expect(queryKey("repositories")).toBe("");
    expect(queryKey("the a of")).toBe("");
    const long = Array.from(
      { length: MAX_KEY_WORDS + 1 },
      (_, index) => `word${String.fromCharCode(97 + index)}`,
    );
    expect(queryKey(long.join(" "))).toBe("");
    expect(queryKey(long.slice(0, MAX_KEY_WORDS).join(" "))).not.toBe("");
  });
});
