import { describe, expect, it } from "vitest";
import { LRUCache } from "./lru-cache.js";

describe("LRUCache", () => {
  it("keeps at most `limit` entries and evicts the least recently used", () => {
    const cache = new LRUCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // a is now more recent than b
    cache.set("c", 3);
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });
});
