/**
 * Saved search indexes for the CLI: one snapshot per catalog content in the user's cache folder,
 * so a second `search` or `rank` over an unchanged catalog reads the index instead of building it.
 */

import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { combineHashes, hashString, type ToolDefinition } from "../catalog/index.js";
import { type IndexStore, indexKey, ToolSearchIndex } from "../search/index.js";
import type { CliIO } from "./io.js";
import { safeText } from "./terminal.js";

/** The cache flags of the commands that build an index. */
export const cacheFlags = {
  cache: { type: "string" },
  "no-cache": { type: "boolean" },
} as const;

/** Most bytes of snapshots kept; the least recently used go first. */
export const CACHE_LIMIT_BYTES = 256 * 1024 * 1024;
const PREFIX = "index-";
const SUFFIX = ".bin";
/** The files eviction counts: index snapshots, the entries of `catalog-cache.ts` with their
 * stamp maps (`stat-key.ts`) and the tool vectors of `vector-cache.ts`. */
const CACHED_PREFIXES = [PREFIX, "catalog-", "stamps-", "vectors-"];

/** The cache folder: `--cache DIR`, else `$XDG_CACHE_HOME/toolsift`, else `~/.cache/toolsift`;
 * undefined with `--no-cache`. */
export function cacheDir(
  flags: { cache?: string | undefined; "no-cache"?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (flags["no-cache"] === true) return undefined;
  if (flags.cache) return path.resolve(flags.cache);
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "toolsift");
}

/** The cache file of these tools: what the index reads of each, in order (the index's id order).
 * The version moves with the snapshot format (v3: format 4, v4: format 5, v5: format 6), so an
 * older file is missed, not read and warned about. */
export function cacheFile(dir: string, tools: readonly ToolDefinition[]): string {
  const key = hashString(`v5|${combineHashes(tools.map(indexKey))}`);
  return path.join(dir, `${PREFIX}${key}${SUFFIX}`);
}

/**
 * The cache folder as a store of saved indexes by content (`IndexStore`): `read` gives the
 * snapshot of exactly these tools, if kept; `write` keeps one atomically (a temp file renamed
 * into place, so a reader in another process sees the old file, the new one or none, never half
 * of one) and evicts beyond `limit`. Cache trouble (a read-only folder) warns; it never fails
 * the command. `search` over stdin and `serve` use it.
 */
export function cacheStore(dir: string, io: CliIO, limit = CACHE_LIMIT_BYTES): IndexStore {
  return {
    read(tools) {
      const file = cacheFile(dir, tools);
      try {
        const snapshot = readFileSync(file);
        // the file was used: it becomes the most recently used for eviction
        const now = new Date();
        utimesSync(file, now, now);
        return snapshot;
      } catch {
        return undefined;
      }
    },
    write(tools, snapshot) {
      const file = cacheFile(dir, tools);
      try {
        writeAtomically(file, snapshot);
        evict(dir, limit, file);
      } catch (error) {
        io.stderr(
          `warning: ${safeText(`could not write the index cache in ${dir}: ${(error as Error).message}; pass --cache DIR or --no-cache.`, { oneLine: true })}\n`,
        );
      }
    },
  };
}

/**
 * An index over `tools`, read from the cache when it holds one for this exact content; else
 * built and written there. A damaged cache file warns, and the index is built and rewritten.
 */
export function cachedIndex(
  tools: readonly ToolDefinition[],
  dir: string,
  io: CliIO,
  limit = CACHE_LIMIT_BYTES,
): ToolSearchIndex {
  const store = cacheStore(dir, io, limit);
  const file = cacheFile(dir, tools);
  const index = new ToolSearchIndex({
    onWarning: (message) =>
      io.stderr(`warning: ${safeText(`${message} (cache file ${file})`, { oneLine: true })}\n`),
  });
  if (!index.fill(tools, store.read(tools))) store.write(tools, index.exportSnapshot());
  return index;
}

/** Writes a file so that readers in other processes see the old file, the new one or none. */
export function writeAtomically(file: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, file);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // the temp file was never made
    }
    throw error;
  }
}

/** Deletes the least recently used snapshots until the rest fit in `limit` bytes (`keep` stays). */
export function evict(dir: string, limit: number, keep: string): void {
  const entries: { file: string; size: number; used: number }[] = [];
  for (const name of readdirSync(dir)) {
    if (!CACHED_PREFIXES.some((prefix) => name.startsWith(prefix)) || !name.endsWith(SUFFIX)) {
      continue;
    }
    const file = path.join(dir, name);
    try {
      const stat = statSync(file);
      entries.push({ file, size: stat.size, used: stat.mtimeMs });
    } catch {
      // another process evicted it first
    }
  }
  let total = entries.reduce((sum, entry) => sum + entry.size, 0);
  entries.sort((a, b) => a.used - b.used);
  for (const entry of entries) {
    if (total <= limit) break;
    if (entry.file === keep) continue;
    try {
      unlinkSync(entry.file);
    } catch {
      // already gone: another process evicted it
    }
    total -= entry.size;
  }
}
