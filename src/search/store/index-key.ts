/**
 * What a saved index is tied to: a hash of exactly the text the index reads from each tool (the
 * items `FieldReader` reads, which are all an encoding reads), not of the whole tool. Two tools
 * with the same key build the same postings, name tables and name masks, so a snapshot saved for
 * one serves the other; a change to anything a build reads changes the key.
 */

import { ContentHash, type ToolDefinition } from "../../catalog/index.js";
import { FieldReader } from "./fields.js";

/**
 * Hashes each item as it is read, tagged with its field and length, so no two tools that read
 * differently feed the same sequence (no lists are kept: a restore runs this once per tool in
 * cold code, where every extra step shows).
 */
class KeyReader extends FieldReader {
  private hash = new ContentHash();

  key(tool: ToolDefinition): string {
    this.hash = new ContentHash();
    this.read(tool);
    return this.hash.digest();
  }

  protected put(field: number, text: string): void {
    this.hash.count(field);
    this.hash.text(text);
  }
}

// per frozen tool, as the catalog's fingerprints are: a stored tool cannot change under its key
const keys = new WeakMap<object, string>();
const reader = new KeyReader();

/** The index key of one tool: 16 hex characters (cached per frozen tool). */
export function indexKey(tool: ToolDefinition): string {
  const cached = keys.get(tool);
  if (cached !== undefined) return cached;
  const key = reader.key(tool);
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
