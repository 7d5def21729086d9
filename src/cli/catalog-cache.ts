/**
 * The CLI's fast path for unchanged catalog files: one cache entry per exact set of files (their
 * paths and bytes) and load flags, holding the tools as loaded (checked and normalised), the
 * warnings the load printed and the search index. A hit skips parsing the files, every schema
 * check and the index build; the index still checks that it was saved from these tools.
 */

import { createHash } from "node:crypto";
import { readFileSync, utimesSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ToolDefinition } from "../catalog/index.js";
import { indexKey, rememberIndexKey, ToolSearchIndex } from "../search/index.js";
import { oneOf, requireCatalogs } from "./args.js";
import { CACHE_LIMIT_BYTES, cacheDir, cachedIndex, evict, writeAtomically } from "./index-cache.js";
import type { CliIO } from "./io.js";
import { expandSources, indexTools, type LoadFlags, loadTools } from "./load.js";
import { type Progress, safeText } from "./terminal.js";

/** Bumped when what the loader keeps or checks changes, so older entries are not read (4: index
 * snapshot format 3 and its index keys). */
const ENTRY_FORMAT = 4;
const MAGIC = 0x43435354; // "TSCC" little-endian
// magic, format, JSON length, then a SHA-256 of the JSON
const HEADER_BYTES = 12 + 32;
/** Entries are named apart from the index-only snapshots of `cachedIndex`. */
export const ENTRY_PREFIX = "catalog-";

interface Entry {
  tools: ToolDefinition[];
  /** The warning lines the load printed, printed again on a hit. */
  warnings: string[];
  /** Each tool's `indexKey`, so a hit does not read every tool again for the index's check. */
  keys: string[];
}

/** The tools of the --catalog flags and their index: from the cache when it holds this exact
 * set of files, else loaded, indexed and stored. Stdin (`--catalog -`) is never keyed. */
export async function loadIndexedTools(
  flags: LoadFlags & { cache?: string | undefined; "no-cache"?: boolean | undefined },
  io: CliIO,
  progress: Progress,
): Promise<{ tools: ToolDefinition[]; index: ToolSearchIndex }> {
  const dir = cacheDir(flags, io.env ?? process.env);
  if (dir === undefined) {
    const tools = await loadTools(flags, io, progress);
    return { tools, index: indexTools(tools, progress) };
  }
  // the flags loadTools checks are checked here too, so a hit refuses what a load would
  oneOf(flags.duplicates, "duplicates", ["qualify", "error"]);
  const sources = await expandSources(requireCatalogs(flags.catalog));
  if (sources.includes("-")) {
    const tools = await loadTools(flags, io, progress);
    progress.step(`indexing ${tools.length} tools (cache ${dir})`);
    return { tools, index: cachedIndex(tools, dir, io) };
  }
  const file = path.join(dir, `${ENTRY_PREFIX}${await entryKey(sources, flags)}.bin`);
  const hit = readEntry(file, io);
  if (hit) return hit;
  const warnings: string[] = [];
  // the warnings of this load are kept, to be printed again when the entry is read
  const recording: CliIO = {
    ...io,
    stderr: (text) => {
      if (text.startsWith("warning:")) warnings.push(text);
      io.stderr(text);
    },
  };
  const tools = await loadTools(flags, recording, progress);
  const index = indexTools(tools, progress);
  try {
    writeAtomically(
      file,
      encodeEntry({ tools, warnings, keys: tools.map(indexKey) }, index.exportSnapshot()),
    );
    evict(dir, CACHE_LIMIT_BYTES, file);
  } catch (error) {
    io.stderr(
      `warning: ${safeText(`could not write the index cache in ${dir}: ${(error as Error).message}; pass --cache DIR or --no-cache.`, { oneLine: true })}\n`,
    );
  }
  return { tools, index };
}

/** SHA-256 over the entry format, the load flags and each file's path and bytes. */
async function entryKey(sources: readonly string[], flags: LoadFlags): Promise<string> {
  const hash = createHash("sha256");
  hash.update(
    JSON.stringify([ENTRY_FORMAT, flags.strict === true, flags.duplicates ?? "qualify", sources]),
  );
  for (const source of sources) {
    const bytes = await readFile(source);
    hash.update(`|${bytes.length}|`);
    hash.update(bytes);
  }
  return hash.digest("hex").slice(0, 32);
}

/** Non-ASCII UTF-16 code units, written as JSON escapes so the entry's JSON is all ASCII. */
const NON_ASCII = /[\u0080-\uffff]/g;

function encodeEntry(entry: Entry, snapshot: Uint8Array): Uint8Array {
  // all-ASCII JSON decodes as latin1 into a one-byte string: a third of the UTF-8 decode's time
  // on the real catalogs, whose emoji and accents made the whole text two-byte
  const text = JSON.stringify(entry).replace(
    NON_ASCII,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const json = Buffer.from(text, "latin1");
  const bytes = Buffer.alloc(HEADER_BYTES + json.length + snapshot.length);
  bytes.writeUInt32LE(MAGIC, 0);
  bytes.writeUInt32LE(ENTRY_FORMAT, 4);
  bytes.writeUInt32LE(json.length, 8);
  createHash("sha256").update(json).digest().copy(bytes, 12);
  json.copy(bytes, HEADER_BYTES);
  bytes.set(snapshot, HEADER_BYTES + json.length);
  return bytes;
}

/** The entry's tools and index, or undefined (after a warning when the file is damaged). */
function readEntry(
  file: string,
  io: CliIO,
): { tools: ToolDefinition[]; index: ToolSearchIndex } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
    // the file was used: it becomes the most recently used for eviction
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    return undefined;
  }
  const warn = (why: string) => {
    io.stderr(
      `warning: ${safeText(`index cache file ${file} not used (${why}); it is rebuilt.`, { oneLine: true })}\n`,
    );
    return undefined;
  };
  const jsonLength = bytes.length >= HEADER_BYTES ? bytes.readUInt32LE(8) : -1;
  if (
    jsonLength < 0 ||
    bytes.readUInt32LE(0) !== MAGIC ||
    HEADER_BYTES + jsonLength > bytes.length
  ) {
    return warn("not a toolsift cache entry, or cut short");
  }
  if (bytes.readUInt32LE(4) !== ENTRY_FORMAT) return undefined;
  const json = bytes.subarray(HEADER_BYTES, HEADER_BYTES + jsonLength);
  if (!createHash("sha256").update(json).digest().equals(bytes.subarray(12, HEADER_BYTES))) {
    return warn("its checksum does not match");
  }
  const entry = JSON.parse(json.toString("latin1")) as Entry;
  // frozen like the loader's tools; their keys were checked with the JSON, so the index's
  // fingerprint check does not read every tool again
  entry.tools.forEach((tool, position) => {
    Object.freeze(tool);
    const key = entry.keys[position];
    if (key !== undefined) rememberIndexKey(tool, key);
  });
  let usable = true;
  const index = new ToolSearchIndex({
    snapshot: bytes.subarray(HEADER_BYTES + jsonLength),
    onWarning: (message) => {
      usable = false;
      io.stderr(`warning: ${safeText(`${message} (cache file ${file})`, { oneLine: true })}\n`);
    },
  });
  index.addAll(entry.tools);
  if (!usable) return undefined;
  for (const line of entry.warnings) io.stderr(line);
  return { tools: entry.tools, index };
}
