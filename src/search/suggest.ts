/** Closest-name suggestions (bounded Damerau-Levenshtein) and per-server summaries for no-match results. */

import type { ToolDefinition } from "../catalog/index.js";
import { splitIdentifier } from "../text/index.js";
import type { ServerSummary } from "./types.js";

/**
 * Optimal-string-alignment distance between two strings, or `bound + 1` as soon as it is known to
 * exceed `bound` (so a scan over many names stays cheap).
 */
export function boundedEditDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  let previous2 = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < width; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, (previous2[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  const result = previous[b.length] ?? bound + 1;
  return result > bound ? bound + 1 : result;
}

/** The part of a tool name after its namespace (`mcp__github__create_issue` → `create_issue`). */
export function nameSuffix(name: string): string {
  const cut = Math.max(
    name.lastIndexOf("__") + 1,
    name.lastIndexOf("."),
    name.lastIndexOf("/"),
    name.lastIndexOf(":"),
  );
  return cut > 0 ? name.slice(cut + 1) : name;
}

/** Up to `count` tool names closest to the query (or to one of its words), nearest first. */
export function closestNames(query: string, names: readonly string[], count = 5): string[] {
  const probes = [query.toLowerCase(), ...query.toLowerCase().split(/\s+/)].filter(
    (probe) => probe.length >= 2,
  );
  if (probes.length === 0) return [];
  const scored: { name: string; distance: number }[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const targets = [lower, nameSuffix(lower), ...splitIdentifier(name)];
    let best = Number.POSITIVE_INFINITY;
    for (const probe of probes) {
      const bound = Math.max(2, Math.ceil(probe.length / 2));
      for (const target of targets) {
        // a name that contains the probe is as close as a one-letter typo
        const distance = target.includes(probe) ? 1 : boundedEditDistance(probe, target, bound);
        if (distance <= bound && distance < best) best = distance;
      }
    }
    if (best !== Number.POSITIVE_INFINITY) scored.push({ name, distance: best });
  }
  scored.sort((x, y) => x.distance - y.distance || (x.name < y.name ? -1 : 1));
  return scored.slice(0, count).map((entry) => entry.name);
}

/** How many tools each server offers, by server name; tools without a server are left out. */
export function summarizeServers(tools: Iterable<ToolDefinition>): ServerSummary[] {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    if (tool.server === undefined || tool.server === "") continue;
    counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  }
  return [...counts]
    .map(([server, tools]) => ({ server, tools }))
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
}
