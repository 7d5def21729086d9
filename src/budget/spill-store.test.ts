import { describe, expect, it } from "vitest";
import { o200kCounter } from "../tokens/index.js";
import { createSpillStore, spillReadToolDefinition } from "./spill-store.js";

describe("createSpillStore", () => {
  const text = Array.from(
    { length: 3000 },
    (_, index) => `entry ${index}: value ${index * 7}`,
  ).join("\n");

  it("pages a stored result on token boundaries and line ends, and reassembles it exactly", () => {
    const store = createSpillStore({ pageTokens: 500 });
    const id = store.put(text) as string;
    const pages: string[] = [];
    for (let page = 1; page < 100; page++) {
      const read = store.read(id, { page });
      if (!read) throw new Error("missing");
      expect(o200kCounter.count(read.text)).toBeLessThanOrEqual(500);
      pages.push(read.text);
      if (read.done) {
        expect(read.pages).toBe(page);
        break;
      }
      expect(read.text.endsWith("\n")).toBe(true);
      expect(read.pages).toBeGreaterThan(page);
    }
    expect(pages.join("")).toBe(text);
    expect(store.read(id, { page: pages.length + 1 })).toMatchObject({ text: "", done: true });
    expect(() => store.read(id, { page: 0 })).toThrow(/page must be an integer ≥ 1/);
  });

  it("evicts by TTL, by entry count (least recently used first) and by bytes", () => {
    let time = 0;
    const store = createSpillStore({ maxEntries: 2, maxBytes: 1000, ttlMs: 100, now: () => time });
    const a = store.put("a".repeat(100)) as string;
    const b = store.put({ b: 1 }) as string;
    expect(store.read(a)?.text).toBe("a".repeat(100)); // a is now most recent
    const c = store.put("c") as string;
    expect(store.has(b)).toBe(false);
    expect(store.has(a) && store.has(c)).toBe(true);
    time = 150;
    expect(store.read(a)).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.put("x".repeat(2000))).toBeUndefined();
    const d = store.put("d".repeat(600)) as string;
    const e = store.put("e".repeat(600)) as string;
    expect(store.has(d)).toBe(false);
    expect(store.has(e)).toBe(true);
    expect(store.bytes).toBe(600);
  });

  it("stores MCP results as their text and exports the read tool's schema", () => {
    const store = createSpillStore();
    const id = store.put({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AA", mimeType: "image/png" },
      ],
    }) as string;
    expect(store.read(id)?.text).toBe("hello\n\n[image block not stored]");
    expect(spillReadToolDefinition.name).toBe("tool_result_read");
    expect(spillReadToolDefinition.inputSchema).toMatchObject({
      required: ["id"],
      properties: { id: { type: "string" }, page: { type: "integer" } },
    });
  });

  it("keeps a session's results to that session, and clears them with it", () => {
    const store = createSpillStore();
    const id = store.put("secret of session a", { session: "a" }) as string;
    expect(store.read(id, { session: "b" })).toBeUndefined();
    expect(store.read(id)).toBeUndefined();
    expect(store.read(id, { session: "a" })?.text).toBe("secret of session a");
    const other = store.put("b's", { session: "b" }) as string;
    store.clear("a");
    expect(store.read(id, { session: "a" })).toBeUndefined();
    expect(store.read(other, { session: "b" })?.text).toBe("b's");
  });

  it("gives random ids that carry no serial number or content hash", () => {
    const store = createSpillStore();
    const first = store.put("same text") as string;
    const second = store.put("same text") as string;
    expect(first).toMatch(/^spill_[0-9a-f]{32}$/);
    expect(second).toMatch(/^spill_[0-9a-f]{32}$/);
    expect(first).not.toBe(second);
  });
});
