/** The searchable fields of a tool and how their text is pulled out of a ToolDefinition. */

import type { ToolDefinition } from "../catalog/index.js";

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

interface SchemaTexts {
  names: string[];
  descriptions: string[];
  enums: string[];
  seen: number;
}

const BRANCH_KEYS = ["anyOf", "oneOf", "allOf"] as const;

function walkSchema(schema: unknown, depth: number, out: SchemaTexts): void {
  if (depth > MAX_SCHEMA_DEPTH || schema === null || typeof schema !== "object") return;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) {
    for (const value of node.enum) if (typeof value === "string") out.enums.push(value);
  }
  const properties = node.properties;
  if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) {
    const record = properties as Record<string, unknown>;
    // own enumerable keys in `Object.entries` order, without building an array of pairs
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      if (out.seen >= MAX_SCHEMA_PROPERTIES) return;
      out.seen += 1;
      out.names.push(key);
      const value = record[key];
      if (value !== null && typeof value === "object") {
        const description = (value as Record<string, unknown>).description;
        if (typeof description === "string") out.descriptions.push(description);
        walkSchema(value, depth + 1, out);
      }
    }
  }
  if (node.items !== undefined) walkSchema(node.items, depth + 1, out);
  for (const key of BRANCH_KEYS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) walkSchema(item, depth + 1, out);
  }
}

function clip(text: string): string {
  return text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;
}

/**
 * The texts of each field of a tool as lists of items, indexed by field number; a field's text is
 * its items joined by spaces (from `CLIPPED_FROM` on, clipped to `MAX_FIELD_CHARS`); the first
 * three fields hold exactly one item. Reused between calls of `collect`.
 */
export class FieldItems {
  /** Items per field, valid until the next `collect`. */
  readonly items: string[][] = Array.from({ length: FIELD_COUNT }, () => []);
  private readonly schema: SchemaTexts;

  constructor() {
    this.schema = {
      names: this.items[Field.paramNames] as string[],
      descriptions: this.items[Field.paramDescriptions] as string[],
      enums: this.items[Field.enumValues] as string[],
      seen: 0,
    };
  }

  /** Fills `items` from a tool. */
  collect(tool: ToolDefinition): void {
    for (const list of this.items) list.length = 0;
    this.schema.seen = 0;
    walkSchema(tool.inputSchema, 0, this.schema);
    const hint = this.items[Field.hint] as string[];
    hint.push(tool.searchHint ?? "");
    if (tool.keywords) for (const keyword of tool.keywords) hint.push(keyword);
    if (tool.tags) for (const tag of tool.tags) hint.push(tag);
    if (tool.category) hint.push(tool.category);
    const title = tool.title ?? tool.annotations?.title ?? "";
    this.items[Field.name]?.push(tool.name);
    this.items[Field.server]?.push(tool.server ?? "");
    this.items[Field.title]?.push(typeof title === "string" ? title : "");
    this.items[Field.description]?.push(tool.description ?? "");
  }
}

/** Returns the raw text of each field of a tool, indexed by field number. */
export function extractFieldTexts(tool: ToolDefinition): string[] {
  const fields = new FieldItems();
  fields.collect(tool);
  return fields.items.map((items, field) =>
    field < CLIPPED_FROM ? (items[0] as string) : clip(items.join(" ")),
  );
}
