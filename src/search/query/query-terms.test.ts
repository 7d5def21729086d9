import { describe, expect, it } from "vitest";
import { DEFAULT_RANKING } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { planQuery } from "./query-terms.js";

function storeOf(descriptions: string[]): PostingStore {
  const index = new ToolSearchIndex();
  index.addAll(
    descriptions.map((description, n) => ({ name: `tool_${n}`, description, inputSchema: {} })),
  );
  return (index as unknown as { indexed: { store: PostingStore } }).indexed.store;
}

const expansions = (store: PostingStore, word: string) =>
  planQuery([word], [], store, DEFAULT_RANKING)
    .terms.filter((term) => term.expansion)
    .map((term) => term.term)
    .sort();

describe("planQuery expansions of common words", () => {
  it("does not expand a word found in at least 10% of a large catalog (and 20 tools)", () => {
    const many = Array.from({ length: 100 }, (_, n) =>
      n < 30 ? `get record ${n}` : `fetch page ${n}`,
    );
    // `get` is in 30 of 100 tools: no synonyms; `record` likewise
    expect(expansions(storeOf(many), "get")).toEqual([]);
    // `page` is in 70 tools but `fetch` is in the same 70: also common, also unexpanded
    expect(expansions(storeOf(many), "fetch")).toEqual([]);
  });

  it("still expands in a small catalog, where any matching word passes a share", () => {
    const few = ["get the weather", "fetch a report", "list files"];
    // 1 of 3 tools is a third of the catalog, but far below the 20-tool floor
    expect(expansions(storeOf(few), "get")).toEqual(["fetch"]);
  });
});

describe("planQuery on a request longer than 32 distinct words", () => {
  // 40 filler words every tool shares, then the one word that names the task
  const filler = Array.from(
    { length: 40 },
    (_, n) => `filler${String.fromCharCode(97 + (n % 26))}${n}`,
  );
  const tools = [
    ...Array.from({ length: 20 }, (_, n) => `${filler.join(" ")} item ${n}`),
    "packaging of a product",
  ];

  it("keeps the rare words that come late and drops common ones instead", () => {
    const plan = planQuery([...filler, "packaging"], [], storeOf(tools), DEFAULT_RANKING);
    expect(plan.groups).toHaveLength(32);
    expect(plan.groups.map((group) => group.token)).toContain("packag");
  });

  it("finds the tool a late word names", () => {
    const index = new ToolSearchIndex();
    index.addAll(
      tools.map((description, n) => ({ name: `tool_${n}`, description, inputSchema: {} })),
    );
    expect(index.rank([...filler, "packaging"].join(" "), 1)).toEqual(["tool_20"]);
  });
});

describe("planQuery on hyphenated words", () => {
  const store = storeOf(["create a todo task in a list", "send an email", "check the weather"]);
  const tokens = (words: string[]) =>
    planQuery(words, [], store, DEFAULT_RANKING).groups.map((group) => group.token);

  it("searches a word of stop words and letters as one word when a tool writes it so", () => {
    expect(tokens(["add", "to-do"])).toEqual(["add", "todo"]);
  });

  it("leaves the parts alone when no tool knows the joined word", () => {
    expect(tokens(["to-be"])).toEqual([]);
    expect(tokens(["check-weather"])).toEqual(["check", "weather"]);
  });
});
