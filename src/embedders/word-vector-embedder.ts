/** An offline embedder: a weighted average of word vectors, with no model and no service. */

import type { Embedder } from "../search/index.js";
import { tokenize } from "../text/index.js";
import type { WordVectorTable } from "./word-vector-table.js";

// smooth inverse frequency: a word's weight is a / (a + p(word)), with p estimated from the word's
// frequency rank by Zipf's law, so "the" counts little and "invoice" a lot
const SMOOTHING = 1e-3;
const zipf = (rank: number) => 0.1 / (rank + 10);

/**
 * Creates an embedder over a word-vector table (`parseWordVectorTable`). A text's vector is the
 * frequency-weighted average of its words' vectors (camelCase and snake_case split, stop words
 * dropped); words not in the table are skipped.
 */
export function createWordVectorEmbedder(table: WordVectorTable): Embedder {
  const rankOf = new Map<string, number>();
  table.words.forEach((word, rank) => {
    if (!rankOf.has(word)) rankOf.set(word, rank);
  });
  const { dimensions, vectors, scales } = table;
  const embedOne = (text: string): Float32Array => {
    const out = new Float32Array(dimensions);
    for (const word of tokenize(text, { stem: false })) {
      const rank = rankOf.get(word);
      if (rank === undefined) continue;
      const weight = (SMOOTHING / (SMOOTHING + zipf(rank))) * (scales[rank] as number);
      const offset = rank * dimensions;
      for (let index = 0; index < dimensions; index += 1)
        out[index] = (out[index] as number) + weight * (vectors[offset + index] as number);
    }
    return out;
  };
  return {
    id: `word-vectors-${table.words.length}x${dimensions}`,
    embed: async (texts) => texts.map(embedOne),
  };
}
