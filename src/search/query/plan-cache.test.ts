import { describe, expect, it } from "vitest";
import { DEFAULT_RANKING } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { NeighborCache } from "./plan-cache.js";

function storeOf(index: ToolSearchIndex): PostingStore {
  return (index as unknown as { indexed: { store: PostingStore } }).indexed.store;
}

describe("NeighborCache", () => {
  it("answers term ids, stem groups and neighbours as the store does, also after the vocabulary grows", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "send_message", description: "send messages to a channel", inputSchema: {} });
    const store = storeOf(index);
    const cache = new NeighborCache();
    expect(cache.termId("message", store)).toBe(store.termId("message"));
    expect(cache.termId("message", store)).toBeGreaterThanOrEqual(0);
    expect(cache.termId("mailbox", store)).toBe(-1);
    expect(cache.stemGroup("messag", store)).toEqual(store.stemGroup("messag"));
    expect(cache.stemGroup("mailbox", store)).toEqual([]);
    expect(cache.compoundId("sendmessag", store)).toBe(store.termId("~sendmessag"));
    expect(cache.compoundId("sendmessag", store)).toBeGreaterThanOrEqual(0);
    expect(cache.compoundId("readmailbox", store)).toBe(-1);
    expect(cache.get("mail", store, DEFAULT_RANKING)).toEqual([]);
    // a new word is found once the vocabulary has grown, though it was cached as unknown
    index.add({ name: "read_mailbox", description: "read a mailbox", inputSchema: {} });
    expect(cache.termId("mailbox", store)).toBe(store.termId("mailbox"));
    expect(cache.termId("mailbox", store)).toBeGreaterThanOrEqual(0);
    expect(cache.stemGroup("mailbox", store)).toEqual(store.stemGroup("mailbox"));
    expect(cache.stemGroup("mailbox", store).length).toBeGreaterThan(0);
    // a compound cached as unknown is found once the vocabulary has grown
    expect(cache.compoundId("readmailbox", store)).toBe(store.termId("~readmailbox"));
    expect(cache.compoundId("readmailbox", store)).toBeGreaterThanOrEqual(0);
    expect(cache.get("mail", store, DEFAULT_RANKING).map((neighbor) => neighbor.stemmed)).toContain(
      "mailbox",
    );
  });

  it("finds the alphabetically first longer neighbours, also of terms added after a lookup", () => {
    const index = new ToolSearchIndex();
    const words = ["mailz", "mailbox", "mailer", "mailing", "mailed", "mails", "mailman"];
    index.add({ name: "a_tool", description: words.join(" "), inputSchema: {} });
    const store = storeOf(index);
    const longer = (cache: NeighborCache) =>
      cache.get("mail", store, DEFAULT_RANKING).map((neighbor) => store.terms[neighbor.id]);
    const sorted = (list: string[]) => [...list].sort().slice(0, 8);
    expect(longer(new NeighborCache())).toEqual(sorted(words));
    // new terms land in a bucket already sorted for a lookup: it is sorted again
    const more = ["mailable", "mailbag", "mailroom", "mailed"];
    index.add({ name: "b_tool", description: more.join(" "), inputSchema: {} });
    expect(longer(new NeighborCache())).toEqual(sorted([...new Set([...words, ...more])]));
    // each neighbour's stem is the vocabulary's
    for (const neighbor of new NeighborCache().get("mail", store, DEFAULT_RANKING)) {
      expect(neighbor.stemmed).toBe(store.stemOf(neighbor.id));
    }
  });

  it("marks each term once per query", () => {
    const cache = new NeighborCache();
    const marks = cache.termMarks(10);
    expect(marks.mark(3)).toBe(true);
    expect(marks.mark(3)).toBe(false);
    expect(cache.termMarks(10).mark(3)).toBe(true);
  });
});
