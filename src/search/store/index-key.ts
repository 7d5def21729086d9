/**
 * What a saved index is tied to: a hash of exactly the text the index reads from each tool (the
 * items `FieldReader` reads, which are all an encoding reads, and what the companion steps read
 * besides: the required list, and the parameter descriptions past the encoding's cap; and the
 * destructive step's `destructiveHint`), not of the whole tool. Two tools with the same key build
 * the same postings, name tables, name masks, companion facts and destructive-step tables, so a
 * snapshot saved for one serves the other; a change to anything a build reads changes the key.
 */

import { ContentHash, type ToolDefinition } from "../../catalog/index.js";
import { FIELD_COUNT, FieldReader } from "./fields.js";

/** Tags of the companion items, after the field numbers. */
const REQUIRED_ITEM = FIELD_COUNT;
const UNCAPPED_DESCRIPTION = FIELD_COUNT + 1;
/** Tag of the destructive mark (`rank/unasked-destructive.ts`), hashed only for marked tools. */
const DESTRUCTIVE_MARK = FIELD_COUNT + 2;

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
    this.readCompanionItems(tool);
    if (tool.annotations?.destructiveHint === true) this.put(DESTRUCTIVE_MARK, "");
    return this.hash.digest();
  }

  /**
   * What `companion-facts.ts` reads and an encoding may not: each required name (finders), and
   * every top-level parameter description when the encoding did not read them all (it stopped at
   * its property cap, or `properties` is an array).
   */
  private readCompanionItems(tool: ToolDefinition): void {
    const schema = tool.inputSchema as Record<string, unknown>;
    const required = schema.required;
    if (Array.isArray(required)) {
      for (let index = 0; index < required.length; index += 1) {
        const name = required[index];
        if (typeof name === "string") this.put(REQUIRED_ITEM, name);
      }
    }
    const properties = schema.properties;
    if (properties === null || typeof properties !== "object") return;
    // an encoding reads no property of an array, mentions read its items' descriptions
    if (!this.capped && !Array.isArray(properties)) return;
    const values = Object.values(properties as Record<string, unknown>);
    for (let index = 0; index < values.length; index += 1) {
      const description = (values[index] as { description?: unknown } | null)?.description;
      if (typeof description === "string") this.put(UNCAPPED_DESCRIPTION, description);
    }
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
