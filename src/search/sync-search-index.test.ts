import { describe, expect, it } from "vitest";
import type { Catalog, CatalogChange, ToolDefinition } from "../catalog/index.js";
import { syncSearchIndex } from "./sync-search-index.js";
import { ToolSearchIndex } from "./tool-search-index.js";

/** A tiny in-memory catalog implementing the interface, enough to drive change events. */
function fakeCatalog(initial: ToolDefinition[]): Catalog {
  const tools = new Map(initial.map((tool) => [tool.name, tool]));
  const listeners = new Set<(change: CatalogChange) => void>();
  const emit = (change: CatalogChange) => {
    for (const listener of listeners) listener(change);
  };
  return {
    add(input) {
      for (const tool of Array.isArray(input) ? input : [input]) {
        tools.set(tool.name, tool);
        emit({ type: "add", tool });
      }
    },
    remove(name) {
      const tool = tools.get(name);
      if (!tool) return false;
      tools.delete(name);
      emit({ type: "remove", tool });
      return true;
    },
    replace(tool) {
      const previous = tools.get(tool.name);
      tools.set(tool.name, tool);
      emit(previous ? { type: "replace", tool, previous } : { type: "add", tool });
    },
    get: (name) => tools.get(name),
    has: (name) => tools.has(name),
    list: () => [...tools.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
    get size() {
      return tools.size;
    },
    fingerprint: () => String(tools.size),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object" },
});

describe("syncSearchIndex", () => {
  it("fills from the catalog and follows add, replace and remove until unsubscribed", () => {
    const catalog = fakeCatalog([tool("read_file", "Read a file from disk")]);
    const index = new ToolSearchIndex();
    const stop = syncSearchIndex(index, catalog);
    expect(index.rank("read file", 5)).toEqual(["read_file"]);

    catalog.add(tool("send_email", "Send an email message"));
    expect(index.rank("email", 5)).toEqual(["send_email"]);

    expect(index.rank("pigeon", 5)).toEqual([]);
    catalog.replace(tool("send_email", "Post a pigeon message"));
    expect(index.get("send_email")?.description).toBe("Post a pigeon message");
    expect(index.rank("pigeon", 5)).toEqual(["send_email"]);

    catalog.remove("read_file");
    expect(index.has("read_file")).toBe(false);

    stop();
    catalog.add(tool("late_tool", "Added after unsubscribing"));
    expect(index.has("late_tool")).toBe(false);
    expect(index.size).toBe(1);
  });
});

describe("syncSearchIndex with a store of saved indexes", () => {
  const tool = (name: string, description: string): ToolDefinition => ({
    name,
    description,
    inputSchema: { type: "object" },
  });
  const first = [tool("create_issue", "Create an issue"), tool("list_issues", "List issues")];
  const later = tool("send_message", "Send a chat message");

  /** A store in memory that counts its reads and writes. */
  function memoryStore() {
    const saved = new Map<string, Uint8Array>();
    const key = (tools: readonly ToolDefinition[]) => tools.map((item) => item.name).join(",");
    const counts = { reads: 0, hits: 0, writes: 0 };
    return {
      counts,
      read(tools: readonly ToolDefinition[]) {
        counts.reads += 1;
        const bytes = saved.get(key(tools));
        if (bytes) counts.hits += 1;
        return bytes;
      },
      write(tools: readonly ToolDefinition[], bytes: Uint8Array) {
        counts.writes += 1;
        saved.set(key(tools), bytes);
      },
    };
  }

  /** A gateway's start: tools arrive one by one after the sync begins, then a search. */
  function start(store: ReturnType<typeof memoryStore>, warnings: string[]) {
    const catalog = fakeCatalog([]);
    const index = new ToolSearchIndex({ onWarning: (message) => warnings.push(message) });
    syncSearchIndex(index, catalog, store);
    for (const item of [...first, later]) catalog.add(item);
    return { catalog, index };
  }

  it("fills at the first read from the tools then, and a second start reads what the first wrote", () => {
    const store = memoryStore();
    const warnings: string[] = [];
    const one = start(store, warnings);
    // nothing is read or built while tools arrive
    expect(store.counts).toEqual({ reads: 0, hits: 0, writes: 0 });
    expect(one.index.rank("send a message", 1)).toEqual(["send_message"]);
    expect(store.counts).toEqual({ reads: 1, hits: 0, writes: 1 });
    const two = start(store, warnings);
    expect(two.index.rank("send a message", 1)).toEqual(["send_message"]);
    expect(store.counts).toEqual({ reads: 2, hits: 1, writes: 1 });
    expect(warnings).toEqual([]);
    // after the fill, changes apply one by one as without a store
    two.catalog.remove("send_message");
    two.catalog.add(tool("post_note", "Post a note to a channel"));
    expect(two.index.rank("post a note", 1)).toEqual(["post_note"]);
    expect(two.index.has("send_message")).toBe(false);
    expect(store.counts.reads).toBe(2);
  });

  it("a read before every tool arrived fills with the tools so far; later ones are added", () => {
    const store = memoryStore();
    const catalog = fakeCatalog([]);
    const index = new ToolSearchIndex();
    syncSearchIndex(index, catalog, store);
    catalog.add(first);
    expect(index.size).toBe(2);
    catalog.add(later);
    expect(index.rank("send a message", 1)).toEqual(["send_message"]);
    expect(store.counts).toEqual({ reads: 1, hits: 0, writes: 1 });
  });
});
