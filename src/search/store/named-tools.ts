/** A name-ordered view of the indexed tools, for the query modes that scan instead of reading postings. */

import type { ToolDefinition } from "../../catalog/index.js";

/** The indexed tools in name order: their sorted names (built on demand) and a lookup by name. */
export interface NamedTools {
  names(): readonly string[];
  get(name: string): ToolDefinition;
}
