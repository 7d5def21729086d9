/** What the Gemini `parameters` walk carries from node to node. */
import type { JsonSchema } from "../../catalog/index.js";
import type { WarningSink } from "../warnings.js";
import type { GeminiArgumentMapping } from "./arguments.js";

/**
 * The state of one `parameters` conversion: the root that `$ref`s resolve against, the warnings
 * and argument mapping being built, the `$ref` expansion stack, the node budget, and the walk
 * itself (so the per-keyword helpers can recurse without importing it).
 */
export interface GeminiWalkState {
  root: JsonSchema;
  sink: WarningSink;
  mapping: GeminiArgumentMapping;
  /** `$ref`s being expanded, outermost first. */
  refs: string[];
  /** Schema nodes written so far. */
  nodes: number;
  maxRefDepth: number;
  maxNodes: number;
  /** Converts one child node: `pointer` into the original schema, `argPath` in argument space. */
  convert: (node: unknown, pointer: string, argPath: string) => JsonSchema;
}
