/**
 * The byte layout of a saved index: a fixed prefix (magic, format version, header length,
 * checksum), a JSON header (fingerprint, named sections, scalar values), then the sections, each
 * 8-byte aligned so typed arrays are read in place. Readers ignore sections they do not know,
 * so a later part of the index can add its own without a new format version.
 */

/**
 * Version of the byte layout and of what the fingerprint covers; a snapshot of another version is
 * rebuilt, never read. 2: the fingerprint hashes what the index reads of each tool (`indexKey`).
 * 3: the term and name hash tables are saved as they are, with their hash basis. 4: the
 * companion facts are saved (`companion-facts.ts`) and the fingerprint covers what they read.
 * 5: the destructive step's tables are saved (`unasked-destructive.ts`) and the fingerprint
 * covers `destructiveHint`. 6: name fit's name words are saved (`name-fit.ts`).
 */
export const SNAPSHOT_FORMAT = 6;
const MAGIC = 0x58495354; // "TSIX" read as a little-endian u32
const PREFIX = 16;

type ArrayKind = "u8" | "i32" | "u32" | "f32" | "f64" | "json";
type AnyArray = Uint8Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type OwnArray =
  | Uint8Array<ArrayBuffer>
  | Int32Array<ArrayBuffer>
  | Uint32Array<ArrayBuffer>
  | Float32Array<ArrayBuffer>
  | Float64Array<ArrayBuffer>;

const BYTES: Record<ArrayKind, number> = { u8: 1, i32: 4, u32: 4, f32: 4, f64: 8, json: 1 };

interface Header {
  fingerprint: string;
  /** Section name → [kind, byte offset from the body start, item count]. */
  sections: Record<string, [ArrayKind, number, number]>;
  values: Record<string, number>;
}

/** Why a snapshot was not read: the warning names it. */
export class SnapshotProblem extends Error {}

/**
 * FNV-1a over 32-bit words (and the tail bytes) from `start` (a multiple of 4): fast enough for
 * 60 MB, flips any changed bit. `bytes` must start 4-byte aligned in its buffer; words are read
 * in the platform's byte order, as every typed-array section is (little-endian everywhere
 * toolsift runs).
 */
export function checksum(bytes: Uint8Array, start: number): number {
  let hash = 0x811c9dc5;
  const words = new Uint32Array(
    bytes.buffer,
    bytes.byteOffset + start,
    (bytes.length - start) >> 2,
  );
  // an indexed loop over a typed array: optimised within a few thousand words in a fresh process
  for (let index = 0; index < words.length; index += 1) {
    hash = Math.imul(hash ^ (words[index] as number), 16777619);
  }
  for (let at = start + words.length * 4; at < bytes.length; at += 1) {
    hash = Math.imul(hash ^ (bytes[at] as number), 16777619);
  }
  return hash >>> 0;
}

const align = (offset: number) => (offset + 7) & ~7;

/** Collects sections and values, then writes them as one snapshot. */
export class SnapshotWriter {
  private readonly parts: { name: string; kind: ArrayKind; data: Uint8Array; count: number }[] = [];
  private readonly values: Record<string, number> = {};

  /** Adds a typed-array section (its used part is copied on `finish`). */
  array(name: string, kind: Exclude<ArrayKind, "json">, array: AnyArray): void {
    const data = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    this.parts.push({ name, kind, data, count: array.length });
  }

  /** Adds a section of JSON data (strings such as terms). */
  json(name: string, value: unknown): void {
    const data = new TextEncoder().encode(JSON.stringify(value));
    this.parts.push({ name, kind: "json", data, count: data.length });
  }

  /** Adds a number value. */
  value(name: string, value: number): void {
    this.values[name] = value;
  }

  /** The snapshot bytes. */
  finish(fingerprint: string): Uint8Array {
    const sections: Header["sections"] = {};
    let offset = 0;
    for (const part of this.parts) {
      offset = align(offset);
      sections[part.name] = [part.kind, offset, part.count];
      offset += part.data.length;
    }
    const header: Header = { fingerprint, sections, values: this.values };
    const headerBytes = new TextEncoder().encode(JSON.stringify(header));
    const bodyStart = align(PREFIX + headerBytes.length);
    const bytes = new Uint8Array(bodyStart + align(offset));
    const view = new DataView(bytes.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, SNAPSHOT_FORMAT, true);
    view.setUint32(8, headerBytes.length, true);
    bytes.set(headerBytes, PREFIX);
    for (const part of this.parts) {
      bytes.set(part.data, bodyStart + (sections[part.name] as [ArrayKind, number, number])[1]);
    }
    view.setUint32(12, checksum(bytes, PREFIX), true);
    return bytes;
  }
}

/** Snapshot bytes their owner handed over to the index (`handOverSnapshot`). */
const handedOver = new WeakSet<Uint8Array>();

/**
 * Marks `bytes` as handed over: the owner will not change or reuse them, so a reader whose bytes
 * start 8-byte aligned in their buffer views them in place instead of copying them (the CLI's
 * cache entry, read from a file for this one index: the copy of a 4 MB snapshot was 5% of a warm
 * `rank`). Returns `bytes`.
 */
export function handOverSnapshot<T extends Uint8Array>(bytes: T): T {
  handedOver.add(bytes);
  return bytes;
}

/** Reads a snapshot's sections in place; every failure is a `SnapshotProblem`. */
export class SnapshotReader {
  readonly fingerprint: string;
  private readonly header: Header;
  /**
   * The whole snapshot, 8-byte aligned: a copy in a fresh buffer, or the handed-over bytes'
   * own buffer; sections are views into it.
   */
  private readonly body: ArrayBuffer;
  /** Where the sections start in `body`. */
  private readonly bodyStart: number;
  /** Where the snapshot ends in `body` (handed-over bytes may be part of a larger buffer). */
  private readonly bodyEnd: number;

  constructor(bytes: Uint8Array) {
    if (!(bytes instanceof Uint8Array)) throw new SnapshotProblem("it is not a Uint8Array");
    if (bytes.length < PREFIX) throw new SnapshotProblem(`it is truncated (${bytes.length} bytes)`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== MAGIC) throw new SnapshotProblem("it is not a toolsift index");
    const format = view.getUint32(4, true);
    if (format !== SNAPSHOT_FORMAT) {
      throw new SnapshotProblem(`its format is ${format}, this toolsift reads ${SNAPSHOT_FORMAT}`);
    }
    const copy = SnapshotReader.aligned(bytes);
    if (checksum(copy, PREFIX) !== view.getUint32(12, true)) {
      throw new SnapshotProblem("its checksum does not match (damaged or truncated)");
    }
    const headerLength = view.getUint32(8, true);
    const bodyStart = align(PREFIX + headerLength);
    if (bodyStart > bytes.length) throw new SnapshotProblem("its header runs past the end");
    try {
      const text = new TextDecoder().decode(copy.subarray(PREFIX, PREFIX + headerLength));
      this.header = JSON.parse(text) as Header;
    } catch {
      throw new SnapshotProblem("its header is not valid JSON");
    }
    if (typeof this.header?.fingerprint !== "string" || typeof this.header.sections !== "object") {
      throw new SnapshotProblem("its header lacks a fingerprint or sections");
    }
    this.fingerprint = this.header.fingerprint;
    this.body = copy.buffer as ArrayBuffer;
    this.bodyStart = copy.byteOffset + bodyStart;
    this.bodyEnd = copy.byteOffset + copy.length;
  }

  /**
   * The bytes to read, 8-byte aligned in their buffer: handed-over bytes that already are, as
   * they are; else one copy into a fresh buffer, before the checksum, so the words are read in
   * place, typed arrays view it, and the caller's bytes may be reused (a Buffer's `slice` would
   * share memory, so copy explicitly).
   */
  private static aligned(bytes: Uint8Array): Uint8Array {
    if (handedOver.has(bytes) && bytes.byteOffset % 8 === 0) return bytes;
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    return copy;
  }

  /** A number value; throws when missing or not a whole number at least 0. */
  value(name: string): number {
    const value = this.header.values?.[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
      throw new SnapshotProblem(`its value "${name}" is missing or invalid`);
    }
    return value;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.header.sections, name);
  }

  u8(name: string): Uint8Array<ArrayBuffer> {
    return this.section(name, "u8", Uint8Array);
  }
  i32(name: string): Int32Array<ArrayBuffer> {
    return this.section(name, "i32", Int32Array);
  }
  u32(name: string): Uint32Array<ArrayBuffer> {
    return this.section(name, "u32", Uint32Array);
  }
  f32(name: string): Float32Array<ArrayBuffer> {
    return this.section(name, "f32", Float32Array);
  }
  f64(name: string): Float64Array<ArrayBuffer> {
    return this.section(name, "f64", Float64Array);
  }

  /** A JSON section, parsed. */
  json(name: string): unknown {
    const bytes = this.section(name, "json", Uint8Array);
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new SnapshotProblem(`its section "${name}" is not valid JSON`);
    }
  }

  private section<T extends OwnArray>(
    name: string,
    kind: ArrayKind,
    Type: new (buffer: ArrayBuffer, offset: number, length: number) => T,
  ): T {
    const entry = this.header.sections[name];
    if (!Array.isArray(entry) || entry[0] !== kind) {
      throw new SnapshotProblem(`its section "${name}" is missing or not ${kind}`);
    }
    const [, offset, count] = entry;
    const valid =
      Number.isInteger(offset) &&
      Number.isInteger(count) &&
      offset >= 0 &&
      count >= 0 &&
      offset % BYTES[kind] === 0 &&
      this.bodyStart + offset + count * BYTES[kind] <= this.bodyEnd;
    if (!valid) throw new SnapshotProblem(`its section "${name}" lies outside the snapshot`);
    return new Type(this.body, this.bodyStart + offset, count);
  }
}
