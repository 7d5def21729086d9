/** Tool vectors for semantic search: cached by the hash of the text embedded, persistable, and laid
 * out as one matrix for scoring. */

import { hashString, type ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier } from "../../text/index.js";
import { CosineMoments } from "./cosine-moments.js";
import { normalizeVector } from "./embedder.js";

/** Tool vectors saved by `exportVectors()`, to restore with the `vectors` option. */
export interface SavedVectors {
  /** The embedder's id; vectors of another embedder are ignored on restore. */
  embedder: string;
  dimensions: number;
  /** Text hash → vector. */
  vectors: Record<string, number[]>;
}

// a description's first part says what the tool does; the rest is detail that blurs an average
const DESCRIPTION_CHARS = 600;

/** The text that stands for a tool when it is embedded: its name's words, title, description
 * (first 600 characters) and parameter names. */
export function toolEmbeddingText(tool: ToolDefinition): string {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  const parameters =
    properties !== null && typeof properties === "object"
      ? Object.keys(properties).slice(0, 30).flatMap(splitIdentifier).join(" ")
      : "";
  const parts = [splitIdentifier(tool.name).join(" ")];
  if (tool.title) parts.push(tool.title);
  if (tool.description) parts.push(tool.description.slice(0, DESCRIPTION_CHARS));
  if (parameters) parts.push(`parameters: ${parameters}`);
  return parts.join(". ");
}

/** The rows of the scoring matrix: tool i's unit vector is `matrix[i*dimensions ...]`. */
export interface VectorMatrix {
  tools: ToolDefinition[];
  /** Row of each tool by name. */
  rowOf: Map<string, number>;
  matrix: Float32Array;
  dimensions: number;
  /** What gives a query's cosine mean and deviation without a pass over every row, if built. */
  moments?: CosineMoments;
}

/** Tool vectors keyed by the hash of the text they embed, so an unchanged tool is never embedded
 * again (across catalog changes, and across restarts through `export`/`restore`). */
export class ToolVectorStore {
  private readonly byKey = new Map<string, Float32Array>();
  private dimensions = 0;

  constructor(private readonly embedderId: string) {}

  /** The cache key of a tool (embedder id and embedded text). */
  keyOf(tool: ToolDefinition): string {
    return hashString(`${this.embedderId}\n${toolEmbeddingText(tool)}`);
  }

  /** Length of the stored vectors (0 before the first). */
  get dimensionCount(): number {
    return this.dimensions;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Stores a vector (normalised); returns false when its length differs from the others. */
  set(key: string, vector: Float32Array): boolean {
    if (vector.length === 0) return false;
    if (this.dimensions === 0) this.dimensions = vector.length;
    if (vector.length !== this.dimensions) return false;
    this.byKey.set(key, normalizeVector(Float32Array.from(vector)));
    return true;
  }

  /** Drops vectors of tools that are gone, so memory follows the catalog. */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const key of this.byKey.keys()) if (!keys.has(key)) this.byKey.delete(key);
  }

  /** One matrix over the given tools (those without a vector are left out). */
  matrixFor(tools: readonly ToolDefinition[], keys: readonly string[]): VectorMatrix {
    const rows: ToolDefinition[] = [];
    const vectors: Float32Array[] = [];
    tools.forEach((tool, index) => {
      const vector = this.byKey.get(keys[index] as string);
      if (vector) {
        rows.push(tool);
        vectors.push(vector);
      }
    });
    const matrix = new Float32Array(rows.length * this.dimensions);
    vectors.forEach((vector, row) => {
      matrix.set(vector, row * this.dimensions);
    });
    const rowOf = new Map(rows.map((tool, row) => [tool.name, row] as const));
    const moments = CosineMoments.of(matrix, rows.length, this.dimensions);
    return {
      tools: rows,
      rowOf,
      matrix,
      dimensions: this.dimensions,
      ...(moments ? { moments } : {}),
    };
  }

  /** Every vector, as plain JSON. */
  export(): SavedVectors {
    const vectors: Record<string, number[]> = {};
    for (const [key, vector] of this.byKey) vectors[key] = Array.from(vector);
    return { embedder: this.embedderId, dimensions: this.dimensions, vectors };
  }

  /** Restores saved vectors of the same embedder; returns how many were taken. */
  restore(saved: SavedVectors): number {
    if (saved.embedder !== this.embedderId) return 0;
    let taken = 0;
    for (const [key, values] of Object.entries(saved.vectors)) {
      if (Array.isArray(values) && this.set(key, Float32Array.from(values))) taken += 1;
    }
    return taken;
  }

  get size(): number {
    return this.byKey.size;
  }
}
