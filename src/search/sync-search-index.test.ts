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
