/** A compact word-vector table: words in frequency order with int8 vectors, one scale per word. */

import { ToolsiftError } from "../errors.js";

/** A loaded table. `vectors[i*dimensions …]` times `scales[i]` is word i's vector. */
export interface WordVectorTable {
  words: readonly string[];
  dimensions: number;
  vectors: Int8Array;
  scales: Float32Array;
}

/** Where `buildWordVectorTable` reads words: most frequent first. */
export interface WordVectorSource {
  dimensions: number;
  /** Words with their vectors, most frequent first (the order sets each word's weight). */
  entries: Iterable<readonly [word: string, vector: ArrayLike<number>]>;
}

const MAGIC = "TSWV0001";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Builds the binary table from word vectors: keeps the first `words` entries that are plain
 * lowercase words (default 50,000) and stores each vector as int8 with its own scale, so a
 * 50,000 × 100 table takes about 5.5 MB.
 */
export function buildWordVectorTable(
  source: WordVectorSource,
  options: { words?: number } = {},
): Uint8Array {
  const wanted = options.words ?? 50_000;
  const { dimensions } = source;
  const words: string[] = [];
  const vectors: ArrayLike<number>[] = [];
  for (const [word, vector] of source.entries) {
    if (words.length >= wanted) break;
    if (!/^[a-z]+$/.test(word) || vector.length < dimensions) continue;
    words.push(word);
    vectors.push(vector);
  }
  const wordBytes = encoder.encode(words.join("\n"));
  const header = encoder.encode(
    JSON.stringify({ dimensions, count: words.length, wordBytes: wordBytes.length }),
  );
  // header length, header, words, padding to 4 bytes, scales (float32), values (int8)
  const start = 8 + 4 + header.length + wordBytes.length;
  const scalesAt = Math.ceil(start / 4) * 4;
  const valuesAt = scalesAt + words.length * 4;
  const bytes = new Uint8Array(valuesAt + words.length * dimensions);
  bytes.set(encoder.encode(MAGIC), 0);
  new DataView(bytes.buffer).setUint32(8, header.length, true);
  bytes.set(header, 12);
  bytes.set(wordBytes, 12 + header.length);
  const scales = new Float32Array(bytes.buffer, scalesAt, words.length);
  const values = new Int8Array(bytes.buffer, valuesAt, words.length * dimensions);
  vectors.forEach((vector, row) => {
    let largest = 0;
    for (let index = 0; index < dimensions; index += 1)
      largest = Math.max(largest, Math.abs(Number(vector[index]) || 0));
    const scale = largest === 0 ? 1 : largest / 127;
    scales[row] = scale;
    for (let index = 0; index < dimensions; index += 1)
      values[row * dimensions + index] = Math.round((Number(vector[index]) || 0) / scale);
  });
  return bytes;
}

function invalid(why: string): ToolsiftError {
  return new ToolsiftError(
    "invalid_option",
    `This is not a toolsift word-vector table: ${why}. Build one with buildWordVectorTable (see docs/semantic-search.md).`,
  );
}

/** Reads a table built by `buildWordVectorTable` (e.g. the bytes of a file). */
export function parseWordVectorTable(bytes: Uint8Array): WordVectorTable {
  if (bytes.length < 12 || decoder.decode(bytes.subarray(0, 8)) !== MAGIC)
    throw invalid("it does not start with the table's magic bytes");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(8, true);
  let header: { dimensions?: unknown; count?: unknown; wordBytes?: unknown };
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(12, 12 + headerLength)));
  } catch {
    throw invalid("its header is not JSON");
  }
  const { dimensions, count, wordBytes } = header;
  if (
    ![dimensions, count, wordBytes].every(
      (value) => Number.isInteger(value) && (value as number) >= 0,
    )
  )
    throw invalid("its header lacks dimensions, count or wordBytes");
  const dims = dimensions as number;
  const rows = count as number;
  const wordsAt = 12 + headerLength;
  const scalesAt = Math.ceil((wordsAt + (wordBytes as number)) / 4) * 4;
  const valuesAt = scalesAt + rows * 4;
  if (bytes.length < valuesAt + rows * dims) throw invalid("it is shorter than its header says");
  const words = decoder
    .decode(bytes.subarray(wordsAt, wordsAt + (wordBytes as number)))
    .split("\n");
  if (words.length !== rows) throw invalid("its word list does not match its count");
  // copies, so the table does not depend on the alignment of the caller's buffer
  const scales = new Float32Array(rows);
  for (let row = 0; row < rows; row += 1) scales[row] = view.getFloat32(scalesAt + row * 4, true);
  // a typed-array copy: a Node Buffer's slice() is a view of its whole pool, not a copy
  const vectors = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, rows * dims).slice();
  return { words, dimensions: dims, vectors, scales };
}
