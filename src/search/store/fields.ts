/** The searchable fields of a tool and how their text is pulled out of a ToolDefinition. */

import type { ToolDefinition } from "../../catalog/index.js";

/** Field numbers; each posting packs one 4-bit term frequency per field. */
export const Field = {
  name: 0,
  server: 1,
  title: 2,
  hint: 3,
  description: 4,
  paramNames: 5,
  paramDescriptions: 6,
  enumValues: 7,
} as const;

/** Number of fields (at most 8: a posting packs 8 × 4 bits). */
export const FIELD_COUNT = 8;

/** Bits per field in a posting's packed term frequencies. */
export const TF_BITS = 4;
/** One field's term frequency in packed frequencies (after shifting), capped at 15. */
export const TF_MASK = 0xf;
/** The name field's term frequency: field 0 holds the lowest bits. */
export const NAME_TF_MASK = TF_MASK;

/** The term frequency of `field` in a posting's packed frequencies. */
export function fieldTf(packed: number, field: number): number {
  return (packed >>> (TF_BITS * field)) & TF_MASK;
}

/** Field names in field-number order, used in explanations. */
export const FIELD_NAMES = [
  "name",
  "server",
  "title",
  "hint",
  "description",
  "paramNames",
  "paramDescriptions",
  "enumValues",
] as const;

/** Longest text read from one field of one tool, in characters (giant descriptions exist). */
export const MAX_FIELD_CHARS = 6_000;
/** Fields from this number on are clipped to `MAX_FIELD_CHARS` (name, server and title are not). */
export const CLIPPED_FROM = Field.hint;
const MAX_SCHEMA_DEPTH = 4;
const MAX_SCHEMA_PROPERTIES = 200;

/**
 * Reads the items of each field of a tool (see `FieldItems`) and hands each to `put` in reading
 * order: the one place that says what the index reads of a tool. A subclass decides what `put`
 * keeps (`FieldItems` lists them; the index key hashes them as they come).
 */
export abstract class FieldReader {
  /** Schema properties read so far by the current `read`. */
  private seen = 0;

  /** True when the last `read` stopped at `MAX_SCHEMA_PROPERTIES`, leaving properties unread. */
  protected get capped(): boolean {
    return this.seen >= MAX_SCHEMA_PROPERTIES;
  }

  /** Receives one item of a field. */
  protected abstract put(field: number, text: string): void;

  /** Hands every item of a tool to `put`: schema items first, then hints, name, server, title, description. */
  protected read(tool: ToolDefinition): void {
    this.seen = 0;
    this.walkSchema(tool.inputSchema, 0);
    this.put(Field.hint, tool.searchHint ?? "");
    if (tool.keywords) for (const keyword of tool.keywords) this.put(Field.hint, keyword);
    if (tool.tags) for (const tag of tool.tags) this.put(Field.hint, tag);
    if (tool.category) this.put(Field.hint, tool.category);
    const title = tool.title ?? tool.annotations?.title ?? "";
    this.put(Field.name, tool.name);
    this.put(Field.server, tool.server ?? "");
    this.put(Field.title, typeof title === "string" ? title : "");
    this.put(Field.description, tool.description ?? "");
  }

  // written for cold code: a restore runs it once per tool in a fresh process, so indexed loops
  // (no iterators, no `for…in` with own-key checks) and named loads (no loop over key names)
  private walkSchema(schema: unknown, depth: number): void {
    if (depth > MAX_SCHEMA_DEPTH || schema === null || typeof schema !== "object") return;
    const node = schema as Record<string, unknown>;
    const values = node.enum;
    if (Array.isArray(values)) {
      for (let index = 0; index < values.length; index += 1) {
        const value = values[index];
        if (typeof value === "string") this.put(Field.enumValues, value);
      }
    }
    const properties = node.properties;
    if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
      const record = properties as Record<string, unknown>;
      // own enumerable keys in `Object.entries` order
      const keys = Object.keys(record);
      for (let index = 0; index < keys.length; index += 1) {
        if (this.seen >= MAX_SCHEMA_PROPERTIES) return;
        this.seen += 1;
        const key = keys[index] as string;
        this.put(Field.paramNames, key);
        const value = record[key];
        if (value !== null && typeof value === "object") {
          const description = (value as Record<string, unknown>).description;
          if (typeof description === "string") this.put(Field.paramDescriptions, description);
          this.walkSchema(value, depth + 1);
        }
      }
    }
    if (node.items !== undefined) this.walkSchema(node.items, depth + 1);
    this.walkBranches(node.anyOf, depth);
    this.walkBranches(node.oneOf, depth);
    this.walkBranches(node.allOf, depth);
  }

  private walkBranches(list: unknown, depth: number): void {
    if (!Array.isArray(list)) return;
    for (let index = 0; index < list.length; index += 1) this.walkSchema(list[index], depth + 1);
  }
}

/**
 * The texts of each field of a tool as lists of items, indexed by field number; a field's text is
 * its first `counts[field]` items joined by spaces (from `CLIPPED_FROM` on, clipped to
 * `MAX_FIELD_CHARS`); the first three fields hold exactly one item. The lists are reused between
 * calls of `collect` and never shrunk (entries past the count are stale), so a build of many
 * tools does not reallocate them for every tool.
 */
export class FieldItems extends FieldReader {
  /** Items per field; only the first `counts[field]` are valid, until the next `collect`. */
  readonly items: string[][] = Array.from({ length: FIELD_COUNT }, () => []);
  /** Number of valid items per field. */
  readonly counts = new Int32Array(FIELD_COUNT);

  /** Fills `items` and `counts` from a tool. */
  collect(tool: ToolDefinition): void {
    this.counts.fill(0);
    this.read(tool);
  }

  /** The valid items of a field, as a new array. */
  list(field: number): string[] {
    return (this.items[field] as string[]).slice(0, this.counts[field]);
  }

  protected put(field: number, text: string): void {
    const count = this.counts[field] as number;
    (this.items[field] as string[])[count] = text;
    this.counts[field] = count + 1;
  }
}

function clip(text: string): string {
  return text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
}

/** Returns the raw text of each field of a tool, indexed by field number. */
export function extractFieldTexts(tool: ToolDefinition): string[] {
  const fields = new FieldItems();
  fields.collect(tool);
  return fields.items.map((_, field) =>
    field < CLIPPED_FROM
      ? (fields.items[field]?.[0] as string)
      : clip(fields.list(field).join(" ")),
  );
}
