/** Keeps a search index in step with a live catalog. */

import type { Catalog } from "../catalog/index.js";
import type { ToolSearchIndex } from "./tool-search-index.js";

/**
 * Fills the index from `catalog.list()` and applies every later add, remove and replace.
 * Returns the unsubscribe function; the index keeps its tools after unsubscribing.
 */
export function syncSearchIndex(index: ToolSearchIndex, catalog: Catalog): () => void {
  index.addAll(catalog.list());
  return catalog.onChange((change) => {
    if (change.type === "remove") index.remove(change.tool.name);
    else if (change.type === "replace") {
      if (change.previous.name !== change.tool.name) index.remove(change.previous.name);
      index.replace(change.tool);
    } else index.add(change.tool);
  });
}
