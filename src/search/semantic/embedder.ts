/** The embedder contract for semantic search, and the vector helpers every part of it shares. */

/** What a text is: a user's query, or the text that stands for one tool. */
export type EmbedKind = "query" | "tool";

/**
 * Turns texts into vectors for semantic search. Any model fits: a hosted `/embeddings` endpoint,
 * a local model, or the word-vector table of `toolsift/embedders`. Vectors of one embedder must
 * all have the same length; they need not be normalised (toolsift normalises them).
 */
export interface Embedder {
  /** Names the model; cached tool vectors are kept apart per id (default "embedder"). */
  readonly id?: string;
  /**
   * One vector per text, in order. `kind` lets asymmetric models prefix queries and passages;
   * `signal` fires when toolsift stops waiting (the time limit): stop the request then.
   */
  embed(
    texts: readonly string[],
    options: { kind: EmbedKind; signal?: AbortSignal },
  ): Promise<Float32Array[]>;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalizeVector(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index += 1) {
    const value = vector[index] as number;
    sum += value * value;
  }
  if (sum === 0 || !Number.isFinite(sum)) return vector.fill(0);
  const scale = 1 / Math.sqrt(sum);
  for (let index = 0; index < vector.length; index += 1)
    vector[index] = (vector[index] as number) * scale;
  return vector;
}
