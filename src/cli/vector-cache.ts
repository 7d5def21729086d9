/**
 * Tool vectors on disk, one file per embedder (endpoint, model and prefixes), so a restarted
 * gateway or a second `toolsift search` does not embed an unchanged tool again. Entries are keyed
 * by a hash of the text that stands for the tool (`toolEmbeddingText`): a changed tool gets a new
 * key and is embedded again, alone. Only hashes and vectors are stored, never texts or queries.
 */
import { createHash } from "node:crypto";
import { readFileSync, utimesSync } from "node:fs";
import path from "node:path";
import { CACHE_LIMIT_BYTES, evict, writeAtomically } from "./index-cache.js";

/** Most bytes one embedder's file keeps; the least recently used vectors go first. */
export const VECTOR_FILE_LIMIT_BYTES = 64 * 1024 * 1024;
export const VECTOR_PREFIX = "vectors-";
const MAGIC = Buffer.from("TSVECTR1", "ascii");
// magic, header length, SHA-256 of header and values
const HEADER_BYTES = 8 + 4 + 32;

/** The cache key of one text: short, and says nothing of the text. */
export function textKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** The file of an embedder's vectors in `dir`. */
export function vectorCacheFile(dir: string, identity: string): string {
  return path.join(dir, `${VECTOR_PREFIX}${textKey(`v1\n${identity}`)}.bin`);
}

interface Entry {
  vector: Float32Array;
  /** When it was last stored or read, in ms: eviction drops the oldest. */
  used: number;
}

interface Header {
  identity: string;
  dimensions: number;
  keys: string[];
  used: number[];
}

/** True for a vector worth keeping: every value finite. An all-zero vector is kept: it is what
 * the embedder says of a text it knows no word of, and search ranks that tool by keywords. */
export function isUsableVector(vector: Float32Array): boolean {
  for (const value of vector) if (!Number.isFinite(value)) return false;
  return true;
}

/** Reads a cache file: its entries, or a sentence saying why the file cannot be used. */
function decode(
  bytes: Buffer,
  identity: string,
): { dimensions: number; entries: Map<string, Entry> } | string {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(MAGIC))
    return "not a toolsift vector cache, or cut short";
  const headerLength = bytes.readUInt32LE(8);
  const valuesAt = Math.ceil((HEADER_BYTES + headerLength) / 4) * 4;
  if (valuesAt > bytes.length) return "cut short";
  const digest = createHash("sha256")
    .update(bytes.subarray(HEADER_BYTES, HEADER_BYTES + headerLength))
    .update(bytes.subarray(valuesAt))
    .digest();
  if (!digest.equals(bytes.subarray(12, HEADER_BYTES))) return "its checksum does not match";
  const header = JSON.parse(
    bytes.subarray(HEADER_BYTES, HEADER_BYTES + headerLength).toString("utf8"),
  ) as Header;
  if (header.identity !== identity) return "it belongs to another embedder";
  const { dimensions, keys, used } = header;
  if (!(dimensions > 0) || bytes.length - valuesAt !== keys.length * dimensions * 4)
    return "its size does not match its header";
  const values = new Float32Array(
    bytes.buffer.slice(bytes.byteOffset + valuesAt, bytes.byteOffset + bytes.length),
  );
  const entries = new Map<string, Entry>();
  keys.forEach((key, row) => {
    const vector = values.slice(row * dimensions, (row + 1) * dimensions);
    if (isUsableVector(vector)) entries.set(key, { vector, used: used[row] ?? 0 });
  });
  return { dimensions, entries };
}

function encode(identity: string, dimensions: number, entries: Map<string, Entry>): Buffer {
  const keys = [...entries.keys()];
  const header = Buffer.from(
    JSON.stringify({
      identity,
      dimensions,
      keys,
      used: keys.map((key) => entries.get(key)?.used ?? 0),
    }),
    "utf8",
  );
  const valuesAt = Math.ceil((HEADER_BYTES + header.length) / 4) * 4;
  const bytes = Buffer.alloc(valuesAt + keys.length * dimensions * 4);
  MAGIC.copy(bytes, 0);
  bytes.writeUInt32LE(header.length, 8);
  header.copy(bytes, HEADER_BYTES);
  const values = new Float32Array(keys.length * dimensions);
  keys.forEach((key, row) => {
    values.set(entries.get(key)?.vector ?? [], row * dimensions);
  });
  Buffer.from(values.buffer).copy(bytes, valuesAt);
  createHash("sha256").update(header).update(bytes.subarray(valuesAt)).digest().copy(bytes, 12);
  return bytes;
}

/** Options of `VectorCache.open`. */
export interface VectorCacheOptions {
  /** What the vectors depend on (endpoint, model, prefixes); never a key. */
  identity: string;
  dir: string;
  /** Told about a damaged file or a folder it cannot write (once each). */
  warn: (message: string) => void;
  maxBytes?: number;
}

/** One embedder's tool vectors, read from disk at open and written back with `flush`. */
export class VectorCache {
  readonly file: string;
  private entries = new Map<string, Entry>();
  private dimensions = 0;
  private changed = false;
  private writeFailed = false;
  private clock = 0;

  private constructor(private readonly options: VectorCacheOptions) {
    this.file = vectorCacheFile(options.dir, options.identity);
  }

  /** Opens the cache; a damaged file warns and starts empty (it is replaced at the next flush). */
  static open(options: VectorCacheOptions): VectorCache {
    const cache = new VectorCache(options);
    const read = cache.readDisk(true);
    if (read) {
      cache.entries = read.entries;
      cache.dimensions = read.dimensions;
    }
    return cache;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Float32Array | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.used = this.now();
    return entry?.vector;
  }

  /** Keeps a vector unless it has NaN or infinite values or another length than the others. */
  set(key: string, vector: Float32Array): void {
    if (!isUsableVector(vector)) return;
    if (this.dimensions === 0) this.dimensions = vector.length;
    if (vector.length !== this.dimensions) return;
    this.entries.set(key, { vector: Float32Array.from(vector), used: this.now() });
    this.changed = true;
  }

  /**
   * Writes new vectors: merged with what another process wrote meanwhile (so neither loses the
   * other's work), cut to `maxBytes` by last use, renamed into place atomically. A failure warns
   * once and never throws: the cache only saves work.
   */
  flush(): void {
    if (!this.changed) return;
    this.changed = false;
    const disk = this.readDisk(false);
    if (disk && disk.dimensions === this.dimensions) {
      for (const [key, entry] of disk.entries)
        if (!this.entries.has(key)) this.entries.set(key, entry);
    }
    this.bound();
    try {
      writeAtomically(this.file, encode(this.options.identity, this.dimensions, this.entries));
      evict(this.options.dir, CACHE_LIMIT_BYTES, this.file);
    } catch (error) {
      if (this.writeFailed) return;
      this.writeFailed = true;
      this.options.warn(
        `could not write the vector cache in ${this.options.dir}: ${(error as Error).message}; tools are embedded again next time. Pass --cache DIR or --no-cache.`,
      );
    }
  }

  /** The time of a use in ms, strictly increasing within the process so uses in one
   * millisecond keep their order. */
  private now(): number {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return this.clock;
  }

  /** Drops the least recently used vectors past the size limit. */
  private bound(): void {
    const limit = this.options.maxBytes ?? VECTOR_FILE_LIMIT_BYTES;
    // each entry: its values, its key and its time in the header
    const each = this.dimensions * 4 + 60;
    const room = Math.max(1, Math.floor(limit / each));
    if (this.entries.size <= room) return;
    const newest = [...this.entries].sort((a, b) => b[1].used - a[1].used).slice(0, room);
    this.entries = new Map(newest);
  }

  /** The file's entries; undefined when absent, or damaged (with a warning when `report`). */
  private readDisk(report: boolean) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.file);
      const now = new Date();
      utimesSync(this.file, now, now);
    } catch {
      return undefined;
    }
    let result: ReturnType<typeof decode>;
    try {
      result = decode(bytes, this.options.identity);
    } catch {
      result = "its header is not valid JSON";
    }
    if (typeof result === "string") {
      if (report)
        this.options.warn(
          `vector cache file ${this.file} not used (${result}); the tools are embedded again and the file replaced.`,
        );
      return undefined;
    }
    return result;
  }
}
