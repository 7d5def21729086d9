/**
 * The cheap road to a catalog cache entry: a small file per set of catalog paths and load flags
 * that maps each file's stamp (device, inode, size, mtime and ctime in nanoseconds) to the
 * entry's content key, so an unchanged set of files is found without reading and hashing them.
 *
 * The racy rule (as git's index has): a stamp is saved only when the file's last change (the
 * later of mtime and ctime) is at least `RACY_MARGIN_NS` older than the moment its bytes were
 * read. A write after the read then gives a newer mtime and ctime even on a file system that
 * keeps whole (or two) seconds, so the stamp no longer matches; a write within the same tick as
 * a recent change could keep the stamp, which is why recent files are hashed every run until
 * they have settled. ctime catches a content change whose mtime was set back (`touch -d`,
 * `rsync -t`, `cp -p`), and the inode a file replaced by a rename. Any doubt — a missing or
 * unreadable map, a changed stamp — falls back to reading and hashing the bytes.
 */

import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { writeAtomically } from "./index-cache.js";

/** How much older than its read a file's last change must be for its stamp to be saved. */
export const RACY_MARGIN_NS = 2_000_000_000n;
/** Stamp maps are named apart from the entries they point to. */
export const STAMP_PREFIX = "stamps-";
const FORMAT = 1;

interface StampMap {
  format: number;
  key: string;
  stamps: string[];
}

/** A file's stamp, or undefined when it cannot be read now. */
function stampOf(file: string): { stamp: string; changedNs: bigint } | undefined {
  try {
    const stat = statSync(file, { bigint: true });
    // biome-ignore lint/complexity/useMathMinMax: Math.max throws on bigints
    const changedNs = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
    return {
      stamp: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
      changedNs,
    };
  } catch {
    return undefined;
  }
}

/** The stamp map's file for a set of sources and load flags (`identity` names them). */
export function stampFile(dir: string, identity: string): string {
  const name = createHash("sha256").update(`${FORMAT}|${identity}`).digest("hex").slice(0, 32);
  return path.join(dir, `${STAMP_PREFIX}${name}.bin`);
}

/** The content key saved for these sources when every stamp is unchanged, else undefined. */
export function readStampedKey(file: string, sources: readonly string[]): string | undefined {
  let map: StampMap;
  try {
    map = JSON.parse(readFileSync(file, "latin1")) as StampMap;
  } catch {
    return undefined;
  }
  if (
    map?.format !== FORMAT ||
    typeof map.key !== "string" ||
    !/^[0-9a-f]{32}$/.test(map.key) ||
    !Array.isArray(map.stamps) ||
    map.stamps.length !== sources.length
  ) {
    return undefined;
  }
  for (const [position, source] of sources.entries()) {
    if (stampOf(source)?.stamp !== map.stamps[position]) return undefined;
  }
  return map.key;
}

/** Stamps taken before the sources are read; `save` keeps them only when none is racy. */
export interface StampsBeforeRead {
  save(file: string, key: string): void;
}

/** Takes every source's stamp and the clock, before the caller reads the bytes it keys. */
export function stampBeforeRead(sources: readonly string[]): StampsBeforeRead {
  const readNs = BigInt(Date.now()) * 1_000_000n;
  const stamps = sources.map(stampOf);
  return {
    save(file, key) {
      const settled = stamps.every(
        (entry) => entry !== undefined && entry.changedNs + RACY_MARGIN_NS <= readNs,
      );
      if (!settled) return;
      const map: StampMap = {
        format: FORMAT,
        key,
        stamps: stamps.map((entry) => entry?.stamp ?? ""),
      };
      writeAtomically(file, Buffer.from(JSON.stringify(map), "latin1"));
    },
  };
}
