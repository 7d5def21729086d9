/** Catalog names ↔ provider names for a turn, with the last map kept while the tool set is unchanged. */

import { createNameMap, type NameMap, type NameMapOptions } from "./names.js";
import type { PlanParts } from "./plan-parts.js";
import type { ProviderCapabilities } from "./provider-capabilities.js";

/** Caches the name map of the last tool set, so an unchanged set is not mapped again. */
export function createNameMapCache(
  capabilities: ProviderCapabilities,
): (parts: PlanParts, options: NameMapOptions | undefined) => NameMap {
  let last: { key: string; map: NameMap } | undefined;
  return (parts, options) => {
    const tools = [...parts.meta, ...parts.core, ...parts.revealed, ...parts.deferred];
    const entries = tools.map((tool) =>
      tool.server === undefined ? { name: tool.name } : { name: tool.name, server: tool.server },
    );
    const settings: NameMapOptions = {
      maxLength: Math.min(64, capabilities.maxToolNameLength),
      leadingLetter: capabilities.leadingLetterNames === true,
      ...options,
    };
    const key = JSON.stringify([
      settings.maxLength,
      settings.namespace,
      settings.prefix,
      settings.leadingLetter,
      settings.pattern?.source,
      entries.map((entry) => [entry.name, entry.server]).sort(),
    ]);
    if (last?.key !== key) last = { key, map: createNameMap(entries, settings) };
    return last.map;
  };
}

/** Maps every catalog name in the parts to its provider name. */
export function providerNameMap(parts: PlanParts, names: NameMap): Map<string, string> {
  const result = new Map<string, string>();
  for (const group of [parts.meta, parts.core, parts.revealed, parts.deferred]) {
    for (const tool of group) result.set(tool.name, names.toProvider(tool.name, tool.server));
  }
  return result;
}

/** The catalog name behind a provider name; unknown names pass through unchanged. */
export function catalogName(names: NameMap, providerName: string): string {
  return names.fromProvider(providerName) ?? providerName;
}
