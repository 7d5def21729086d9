/**
 * The CLI's fast path for unchanged catalog files: one cache entry per exact set of files (their
 * paths and bytes) and load flags, holding the tools as loaded (checked and normalised), the
 * warnings the load printed and the search index. A hit skips parsing the files, every schema
 * check and the index build; the index still checks that it was saved from these tools. The
 * entry's key is found from the files' stamps when they are unchanged and settled
 * (`stat-key.ts`), else by reading and hashing the files; a tool's JSON is parsed when first read
 * (`cache-entry.ts`).
 */

import { createHash } from "node:crypto";
import { readFileSync, utimesSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ToolDefinition } from "../catalog/index.js";
import { indexKey, rememberIndexKey, ToolSearchIndex } from "../search/index.js";
import { oneOf, requireCatalogs } from "./args.js";
import { decodeEntry, ENTRY_FORMAT, encodeEntry } from "./cache-entry.js";
import { CACHE_LIMIT_BYTES, cacheDir, cachedIndex, evict, writeAtomically } from "./index-cache.js";
import type { CliIO } from "./io.js";
import { expandSources, indexTools, type LoadFlags, loadTools } from "./load.js";
import { readStampedKey, stampBeforeRead, stampFile } from "./stat-key.js";
import { type Progress, safeText } from "./terminal.js";
import { tuneForCatalog } from "./tune-v8.js";

/** Entries are named apart from the index-only snapshots of `cachedIndex`. */
export const ENTRY_PREFIX = "catalog-";

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
  const identity = entryIdentity(sources, flags);
  const stamps = stampFile(dir, identity);
  // the stamps' key first: an unchanged set of files is found without reading their bytes
  const stamped = readStampedKey(stamps, sources);
  const stampedHit = stamped === undefined ? undefined : readEntry(entryFile(dir, stamped), io);
  if (stampedHit) return stampedHit;
  const before = stampBeforeRead(sources);
  const key = await entryKey(identity, sources);
  const file = entryFile(dir, key);
  // an entry the stamps led to and found unusable (it warned) is rebuilt, not read twice
  const hit = key === stamped ? undefined : readEntry(file, io);
  if (hit) {
    writeCache(() => before.save(stamps, key), dir, io);
    return hit;
  }
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
  writeCache(
    () => {
      writeAtomically(
        file,
        encodeEntry({ tools, warnings, keys: tools.map(indexKey) }, index.exportSnapshot()),
      );
      before.save(stamps, key);
      evict(dir, CACHE_LIMIT_BYTES, file);
    },
    dir,
    io,
  );
  return { tools, index };
}

const entryFile = (dir: string, key: string) => path.join(dir, `${ENTRY_PREFIX}${key}.bin`);

/** Runs a cache write; trouble (a read-only folder) warns and never fails the command. */
function writeCache(write: () => void, dir: string, io: CliIO): void {
  try {
    write();
  } catch (error) {
    io.stderr(
      `warning: ${safeText(`could not write the index cache in ${dir}: ${(error as Error).message}; pass --cache DIR or --no-cache.`, { oneLine: true })}\n`,
    );
  }
}

/** What an entry is for besides the files' bytes: its format, the load flags and the paths. */
function entryIdentity(sources: readonly string[], flags: LoadFlags): string {
  return JSON.stringify([
    ENTRY_FORMAT,
    flags.strict === true,
    flags.duplicates ?? "qualify",
    sources,
  ]);
}

/** SHA-256 over the entry's identity and each file's bytes. */
async function entryKey(identity: string, sources: readonly string[]): Promise<string> {
  const hash = createHash("sha256");
  hash.update(identity);
  for (const source of sources) {
    const bytes = await readFile(source);
    hash.update(`|${bytes.length}|`);
    hash.update(bytes);
  }
  return hash.digest("hex").slice(0, 32);
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
  const entry = decodeEntry(bytes);
  if ("problem" in entry) {
    if (entry.problem !== "format") {
      io.stderr(
        `warning: ${safeText(`index cache file ${file} not used (${entry.problem}); it is rebuilt.`, { oneLine: true })}\n`,
      );
    }
    return undefined;
  }
  // the keys were checked with the tools, so the index's fingerprint check reads no tool
  entry.tools.forEach((tool, position) => {
    const key = entry.keys[position];
    if (key !== undefined) rememberIndexKey(tool, key);
  });
  let usable = true;
  const index = new ToolSearchIndex({
    snapshot: entry.snapshot,
    onWarning: (message) => {
      usable = false;
      io.stderr(`warning: ${safeText(`${message} (cache file ${file})`, { oneLine: true })}\n`);
    },
  });
  tuneForCatalog(entry.tools.length);
  index.addAll(entry.tools);
  if (!usable) return undefined;
  for (const line of entry.warnings) io.stderr(line);
  return { tools: entry.tools, index };
}
