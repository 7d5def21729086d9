/** Keeps a search index in step with a live catalog. */

import type { Catalog, ToolDefinition } from "../catalog/index.js";
import type { ToolSearchIndex } from "./tool-search-index.js";

/** Saved indexes by the tools they were built from, such as the CLI's cache folder. */
export interface IndexStore {
  /** The saved index of exactly these tools (in this order), if there is one. */
  read(tools: readonly ToolDefinition[]): Uint8Array | undefined;
  /** Keeps the index just built from these tools, for the next process. */
  write(tools: readonly ToolDefinition[], snapshot: Uint8Array): void;
}

/**
 * Fills the index from `catalog.list()` and applies every later add, remove and replace.
 * With a `store`, the fill waits for the first call that reads the index (`fillLazily`): tools
 * added meanwhile (a gateway's servers starting) cost nothing, and the fill reads the store's
 * index of the tools as they are then, or builds and writes one there.
 * Returns the unsubscribe function; the index keeps its tools after unsubscribing.
 */
export function syncSearchIndex(
  index: ToolSearchIndex,
  catalog: Catalog,
  store?: IndexStore,
): () => void {
  let filled = store === undefined;
  if (store === undefined) index.addAll(catalog.list());
  else {
    index.fillLazily(() => {
      filled = true;
      const tools = catalog.list();
      if (!index.fill(tools, store.read(tools))) store.write(tools, index.exportSnapshot());
    });
  }
  return catalog.onChange((change) => {
    // before the fill, the fill reads the catalog as it is then
    if (!filled) return;
    if (change.type === "remove") index.remove(change.tool.name);
    else if (change.type === "replace") {
      if (change.previous.name !== change.tool.name) index.remove(change.previous.name);
      index.replace(change.tool);
    } else index.add(change.tool);
  });
}
