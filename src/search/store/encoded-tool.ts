/**
 * The hand-over format between the term encoder (which writes it) and the posting store (which
 * reads it), apart from both so neither file imports the other.
 */

import { FIELD_COUNT } from "./fields.js";

/**
 * The term ids of one tool in one buffer: segment `s` is `ids[bounds[s]] .. ids[bounds[s + 1]]`.
 * Segments 0–7 are the fields; segment 8 (`COMPOUND_SEGMENT`) holds the joined name-word pairs,
 * which belong to the name field. Owned by the encoder and overwritten by its next `encode`.
 */
export interface EncodedTool {
  readonly ids: Int32Array;
  readonly bounds: Int32Array;
}

/** The segment of `EncodedTool` holding the name's compound terms (counted in the name field). */
export const COMPOUND_SEGMENT = FIELD_COUNT;
