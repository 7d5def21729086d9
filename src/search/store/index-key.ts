/**
 * What a saved index is tied to: a hash of exactly the text the index reads from each tool (the
 * items `FieldItems.collect` gathers, which are all an encoding reads), not of the whole tool.
 * Two tools with the same key build the same postings, name tables and name masks, so a snapshot
 * saved for one serves the other; a change to anything a build reads changes the key.
 */

import { ContentHash, type ToolDefinition } from "../../catalog/index.js";
import { FIELD_COUNT, FieldItems } from "./fields.js";

// per frozen tool, as the catalog's fingerprints are: a stored tool cannot change under its key
const keys = new WeakMap<object, string>();
const fields = new FieldItems();

/** The index key of one tool: 16 hex characters (cached per frozen tool). */
export function indexKey(tool: ToolDefinition): string {
  const cached = keys.get(tool);
  if (cached !== undefined) return cached;
  fields.collect(tool);
  const hash = new ContentHash();
  for (let field = 0; field < FIELD_COUNT; field += 1) {
    const count = fields.counts[field] as number;
    const items = fields.items[field] as string[];
    hash.count(count);
    for (let index = 0; index < count; index += 1) hash.text(items[index] as string);
  }
  const key = hash.digest();
  if (Object.isFrozen(tool)) keys.set(tool, key);
  return key;
}

/**
 * Records the key `indexKey` gave a tool in an earlier process, for a tool read back from a store
 * whose integrity the caller has checked (the CLI's checksummed cache), so the tool is not read
 * again. Only frozen tools are kept, as in `indexKey`.
 */
export function rememberIndexKey(tool: ToolDefinition, key: string): void {
  if (Object.isFrozen(tool)) keys.set(tool, key);
}
