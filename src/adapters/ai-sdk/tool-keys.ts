/**
 * Keys of the AI SDK tools record. The SDK sends each key to the provider as the tool's name, and
 * providers accept only `[A-Za-z0-9_-]{1,64}`, while catalog names may hold `/`, `.` or `:`
 * (`github/create_issue`, qualified duplicates). Keys come from toolsift's provider name map, and
 * the meta tools' text (search results, the listing, describe) is rewritten to show keys, so the
 * model calls the names it was shown; names the model passes back to meta tools are mapped home.
 */

import type { Catalog } from "../../catalog/index.js";
import { createNameMap, type NameMap } from "../../providers/index.js";

/** The catalog ⇄ record key mapping of one adapter. */
export interface ToolKeys {
  /** The record key of a catalog tool. */
  keyOf(name: string): string;
  /** Catalog names written as keys in a meta tool's text. */
  toKeys(text: string): string;
  /** A meta tool's input with every string that is a renamed key turned back into its name. */
  toNames(value: unknown): unknown;
}

/** Builds the mapping; `fixed` names (the user's own record keys) are kept as they are. */
export function createToolKeys(catalog: Catalog, fixed: ReadonlySet<string>): ToolKeys {
  let cached: { map: NameMap; renamed: [string, string][]; back: Map<string, string> } | undefined;
  catalog.onChange(() => {
    cached = undefined;
  });
  const current = () => {
    if (!cached) {
      const map = createNameMap(catalog.list().map((tool) => ({ name: tool.name })));
      const renamed: [string, string][] = [];
      for (const entry of map.entries()) {
        if (entry.providerName !== entry.name && !fixed.has(entry.name)) {
          renamed.push([entry.name, entry.providerName]);
        }
      }
      // longer names first, so `a/b/c` is replaced before a name that is its prefix
      renamed.sort((left, right) => right[0].length - left[0].length);
      cached = { map, renamed, back: new Map(renamed.map(([name, key]) => [key, name])) };
    }
    return cached;
  };
  const toNames = (value: unknown): unknown => {
    if (typeof value === "string") return current().back.get(value) ?? value;
    if (Array.isArray(value)) return value.map(toNames);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toNames(item)]));
  };
  return {
    keyOf: (name) =>
      fixed.has(name) || !catalog.has(name) ? name : current().map.toProvider(name),
    toKeys: (text) => {
      let result = text;
      for (const [name, key] of current().renamed) {
        if (result.includes(name)) result = result.replaceAll(name, key);
      }
      return result;
    },
    toNames,
  };
}
