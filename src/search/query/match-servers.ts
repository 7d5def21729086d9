/** `server:NAME` resolution: which catalog servers a name means, and the closest ones when none. */

import { boundedEditDistance } from "../../internal/index.js";
import type { UnknownServer } from "../types.js";

/** Name parts that say what a package is rather than what it serves (`server-slack`, `slack-mcp`). */
const GENERIC_PARTS = new Set(["server", "mcp"]);
const PART_SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The lowercase parts of a server name without the generic ones (`mcp-server-chart` → `chart`). */
export function serverNameParts(name: string): string[] {
  return name
    .toLowerCase()
    .split(PART_SEPARATORS)
    .filter((part) => part.length > 0 && !GENERIC_PARTS.has(part));
}

/**
 * Whether `server:NAME` means server `server`: NAME equals the server's name (any case), or NAME's
 * parts, in order, are a run of the server name's parts once `server` and `mcp` are dropped
 * (`slack` = `server-slack` and `slack-mcp`; `google-maps` = `@scope/mcp-google-maps`).
 */
export function serverMatches(name: string, server: string): boolean {
  if (name.toLowerCase() === server.toLowerCase()) return true;
  const wanted = serverNameParts(name);
  if (wanted.length === 0) return false;
  const parts = serverNameParts(server);
  for (let start = 0; start + wanted.length <= parts.length; start += 1) {
    if (wanted.every((part, offset) => parts[start + offset] === part)) return true;
  }
  return false;
}

/** The servers whose name (or a part of it) is within a few edits of NAME, closest first, at most 3. */
function closestServers(name: string, servers: readonly string[]): string[] {
  const wanted = serverNameParts(name).join("-") || name.toLowerCase();
  const bound = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { server: string; distance: number }[] = [];
  for (const server of servers) {
    const parts = serverNameParts(server);
    const forms = [server.toLowerCase(), parts.join("-"), ...parts];
    let distance = bound + 1;
    for (const form of forms) {
      if (form.length === 0) continue;
      distance = Math.min(distance, boundedEditDistance(wanted, form, bound));
    }
    if (distance <= bound) scored.push({ server, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.server < b.server ? -1 : 1));
  return scored.slice(0, 3).map((entry) => entry.server);
}

/** The lowercase names of the servers a query's `server:` names mean, and the names that mean none. */
export function matchServers(
  names: readonly string[],
  servers: Iterable<string>,
): { servers: string[]; unknown: UnknownServer[] } {
  const known = [...servers];
  const matched = new Set<string>();
  const unknown: UnknownServer[] = [];
  for (const name of names) {
    const hits = known.filter((server) => serverMatches(name, server));
    for (const server of hits) matched.add(server.toLowerCase());
    if (hits.length === 0) unknown.push({ server: name, closest: closestServers(name, known) });
  }
  return { servers: [...matched], unknown };
}
