/**
 * Tools shaped like the CLI cache entry's lazily parsed ones, for tests that prove a restored
 * index reads none of some fields.
 */
import type { ToolDefinition } from "../src/catalog/index.js";
import { indexKey, rememberIndexKey } from "../src/search/index.js";

/**
 * Frozen copies of `tools` that add to `reads` the name of each tool one of whose `watched`
 * fields is read, as a cache entry's lazily parsed tools would parse it. Their index keys are
 * remembered, as the CLI does for a checked entry, so the fingerprint check reads nothing either.
 */
export function lazyTools(
  tools: readonly ToolDefinition[],
  reads: Set<string>,
  watched: readonly string[],
): ToolDefinition[] {
  return tools.map((original) => {
    const copy: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(original)) {
      if (!watched.includes(field)) copy[field] = value;
      else {
        Object.defineProperty(copy, field, {
          enumerable: true,
          get: () => {
            reads.add(original.name);
            return value;
          },
        });
      }
    }
    const frozen = Object.freeze(copy) as unknown as ToolDefinition;
    rememberIndexKey(frozen, indexKey(original));
    return frozen;
  });
}
