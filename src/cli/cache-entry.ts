/**
 * The bytes of one catalog cache entry (see `catalog-cache.ts`) and the tools read back from
 * them. A hit parses only a small head (each tool's index key, field names and the fields read
 * of every tool); each tool's own JSON is parsed when one of its other fields is first read, so a
 * search that prints five hits parses about ten tools, not the 3.4 MB of the 20 real catalogs. A
 * command that reads many tools (`rank` of thousands of queries reads the schemas of most hits
 * for their companions) parses the rest at once after `BULK_AFTER` tools: one parse of the whole
 * array costs a fraction of thousands of small ones.
 */

import { createHash } from "node:crypto";
import type { ToolDefinition } from "../catalog/index.js";
import { handOverSnapshot } from "../search/index.js";

/** Bumped when the layout or what the loader keeps or checks changes; older entries are missed
 * (5: tools parsed on first read, beside index snapshot format 3 and its index keys; 6: index
 * snapshot format 4, which carries the companion facts, and index keys that cover them; 7: index
 * snapshot format 5, which carries the destructive step's tables, and index keys that cover
 * `destructiveHint`; 8: index snapshot format 6, which carries name fit's name words). */
export const ENTRY_FORMAT = 8;
const MAGIC = 0x43435354; // "TSCC" little-endian
// magic, format, head length, tools length, then a SHA-256 of the head and the tools' JSON
export const ENTRY_HEADER_BYTES = 16 + 32;

/** What an entry holds besides the index snapshot. */
export interface EntryContent {
  tools: readonly ToolDefinition[];
  /** The warning lines the load printed, printed again on a hit. */
  warnings: readonly string[];
  /** Each tool's `indexKey`, so a hit does not read every tool again for the index's check. */
  keys: readonly string[];
}

/**
 * The fields every tool gives at once, without parsing its JSON: what a restore reads of every
 * tool (the index files names and servers, and its shape check reads keywords and tags). Any
 * other field parses the tool's JSON on first read.
 */
const EAGER_FIELDS = new Set(["name", "server", "keywords", "tags"]);

/** The head: one row per tool, [index key, shape, eager fields], and where each tool's JSON ends
 * in the tools part (a JSON array: `[`, the tools' JSON joined by `,`, `]`). A shape is a list of field names, stored once for all tools that share it
 * (most tools of a catalog do). */
interface Head {
  warnings: string[];
  shapes: string[][];
  rows: [string, number, Record<string, unknown>][];
  ends: number[];
}

/** Tools parsed one by one before the remaining ones are parsed in one go. */
export const BULK_AFTER = 64;

/** Non-ASCII UTF-16 code units, written as JSON escapes so the entry's JSON is all ASCII. */
const NON_ASCII = /[\u0080-\uffff]/g;

// all-ASCII JSON decodes as latin1 into a one-byte string: a third of the UTF-8 decode's time on
// the real catalogs, whose emoji and accents made the whole text two-byte
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    NON_ASCII,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The fields JSON keeps, in order: a field holding undefined or a function is not written. */
function storedFields(tool: ToolDefinition): string[] {
  return Object.keys(tool).filter((field) => {
    const value = (tool as unknown as Record<string, unknown>)[field];
    return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
  });
}

/** The entry's bytes: header, head JSON, the tools' JSON one after another, then `snapshot`. */
export function encodeEntry(content: EntryContent, snapshot: Uint8Array): Uint8Array {
  const shapeIds = new Map<string, number>();
  const head: Head = { warnings: [...content.warnings], shapes: [], rows: [], ends: [] };
  const texts: string[] = [];
  let length = 0;
  content.tools.forEach((tool, position) => {
    const fields = storedFields(tool);
    const shapeKey = fields.join("\n");
    let shape = shapeIds.get(shapeKey);
    if (shape === undefined) {
      shape = head.shapes.length;
      shapeIds.set(shapeKey, shape);
      head.shapes.push(fields);
    }
    const eager: Record<string, unknown> = {};
    for (const field of fields) {
      if (EAGER_FIELDS.has(field))
        eager[field] = (tool as unknown as Record<string, unknown>)[field];
    }
    head.rows.push([content.keys[position] ?? "", shape, eager]);
    const text = asciiJson(tool);
    texts.push(text);
    // after the "[" or the "," before it
    length += 1 + text.length;
    head.ends.push(length);
  });
  const toolBytes = Buffer.from(`[${texts.join(",")}]`, "latin1");
  const headJson = asciiJson(head);
  // spaces after the head's JSON start the snapshot 8-byte aligned in the file, so a hit reads
  // it in place (`handOverSnapshot`) instead of copying it
  const unaligned = (ENTRY_HEADER_BYTES + headJson.length + toolBytes.length) % 8;
  const headBytes = Buffer.from(headJson + " ".repeat((8 - unaligned) % 8), "latin1");
  const bytes = Buffer.alloc(
    ENTRY_HEADER_BYTES + headBytes.length + toolBytes.length + snapshot.length,
  );
  bytes.writeUInt32LE(MAGIC, 0);
  bytes.writeUInt32LE(ENTRY_FORMAT, 4);
  bytes.writeUInt32LE(headBytes.length, 8);
  bytes.writeUInt32LE(toolBytes.length, 12);
  createHash("sha256").update(headBytes).update(toolBytes).digest().copy(bytes, 16);
  headBytes.copy(bytes, ENTRY_HEADER_BYTES);
  toolBytes.copy(bytes, ENTRY_HEADER_BYTES + headBytes.length);
  bytes.set(snapshot, ENTRY_HEADER_BYTES + headBytes.length + toolBytes.length);
  return bytes;
}

/** A decoded entry: its tools (each parsed on first use), warnings, keys and index snapshot. */
export interface DecodedEntry {
  tools: ToolDefinition[];
  warnings: string[];
  keys: string[];
  snapshot: Uint8Array;
}

/**
 * Reads an entry's bytes. Returns the reason when they are not a usable entry: "format" for an
 * entry of another format (missed silently), else a phrase for the warning. The checksum covers
 * the head and every tool's JSON, so a tool parsed later was checked with the rest.
 */
export function decodeEntry(bytes: Buffer): DecodedEntry | { problem: string } {
  const headLength = bytes.length >= ENTRY_HEADER_BYTES ? bytes.readUInt32LE(8) : -1;
  const toolsLength = headLength >= 0 ? bytes.readUInt32LE(12) : -1;
  const toolsStart = ENTRY_HEADER_BYTES + headLength;
  const snapshotStart = toolsStart + toolsLength;
  if (headLength < 0 || bytes.readUInt32LE(0) !== MAGIC || snapshotStart > bytes.length) {
    return { problem: "not a toolsift cache entry, or cut short" };
  }
  if (bytes.readUInt32LE(4) !== ENTRY_FORMAT) return { problem: "format" };
  const checked = bytes.subarray(ENTRY_HEADER_BYTES, snapshotStart);
  const sum = bytes.subarray(16, ENTRY_HEADER_BYTES);
  if (!createHash("sha256").update(checked).digest().equals(sum)) {
    return { problem: "its checksum does not match" };
  }
  const head = JSON.parse(bytes.toString("latin1", ENTRY_HEADER_BYTES, toolsStart)) as Head;
  let parsedOne = 0;
  let all: Record<string, unknown>[] | undefined;
  const parseTool = (position: number): Record<string, unknown> => {
    if (all === undefined && ++parsedOne > BULK_AFTER) {
      all = JSON.parse(bytes.toString("latin1", toolsStart, snapshotStart));
    }
    if (all !== undefined) return all[position] as Record<string, unknown>;
    // past the "[" or the "," before the tool
    const start = toolsStart + 1 + (position === 0 ? 0 : (head.ends[position - 1] as number));
    return JSON.parse(
      bytes.toString("latin1", start, toolsStart + (head.ends[position] as number)),
    );
  };
  const parsed: (Record<string, unknown> | undefined)[] = [];
  const fieldOf = (position: number, field: string) => {
    let full = parsed[position];
    if (full === undefined) {
      full = parseTool(position);
      parsed[position] = full;
    }
    return full[field];
  };
  const lazy = lazyFields(fieldOf);
  const tools = head.rows.map((row, position) =>
    lazyTool(row[2], head.shapes[row[1]] ?? [], position, lazy),
  );
  return {
    tools,
    warnings: head.warnings,
    keys: head.rows.map((row) => row[0]),
    // the bytes were read for this entry alone: the index may view its part of them in place
    snapshot: handOverSnapshot(bytes.subarray(snapshotStart)),
  };
}

/** Where a lazy tool's getters find its position in the entry (not enumerable, so unseen). */
const POSITION = Symbol("entry position");

/**
 * One property descriptor per field name for all the tools of an entry: its getter reads the
 * tool's position from the tool itself, so a tool costs no closure per field (10k tools made
 * 40k closures, most of them promoted by the scavenger before a command read a single field).
 */
function lazyFields(
  fieldOf: (position: number, field: string) => unknown,
): (field: string) => PropertyDescriptor {
  const descriptors = new Map<string, PropertyDescriptor>();
  return (field) => {
    let descriptor = descriptors.get(field);
    if (descriptor === undefined) {
      descriptor = {
        enumerable: true,
        get(this: { [POSITION]: number }) {
          return fieldOf(this[POSITION], field);
        },
      };
      descriptors.set(field, descriptor);
    }
    return descriptor;
  };
}

/**
 * A frozen tool whose eager fields (`EAGER_FIELDS`) are plain fields and whose other fields
 * (description, schemas, annotations…) are getters that parse the tool's JSON once, on first
 * read. Its own enumerable keys are the stored tool's, in order, so spreading, `Object.keys` and
 * `JSON.stringify` see the same tool the loader returned.
 */
function lazyTool(
  eager: Record<string, unknown>,
  fields: readonly string[],
  position: number,
  lazy: (field: string) => PropertyDescriptor,
): ToolDefinition {
  const tool: Record<string | symbol, unknown> = {};
  Object.defineProperty(tool, POSITION, { value: position });
  for (const field of fields) {
    if (Object.hasOwn(eager, field)) tool[field] = eager[field];
    else Object.defineProperty(tool, field, lazy(field));
  }
  return Object.freeze(tool) as unknown as ToolDefinition;
}
