/**
 * Catalog names for upstream tools: `server__tool` by default, sanitised to the catalog's strict
 * name rule, unique, and reversible through the route table (never by parsing the name).
 */
import { hashString } from "../catalog/index.js";
import type { UpstreamRoute } from "./types.js";

/** How upstream tools are named in the catalog. */
export type NamingOption = "prefixed" | "bare";

const MAX_NAME = 64;
const SEPARATOR = "__";

/** Replaces characters outside [A-Za-z0-9_.-] (the set every MCP client and provider accepts). */
function sanitize(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, "_") || "tool";
}

/** Shortens a name past 64 characters (OpenAI's limit) to a prefix plus a hash of the whole. */
function fitLength(name: string): string {
  if (name.length <= MAX_NAME) return name;
  const tag = hashString(name).slice(0, 8);
  return `${name.slice(0, MAX_NAME - tag.length - 1)}_${tag}`;
}

/** The route table: catalog name ↔ (server, upstream tool). */
export interface UpstreamNames {
  /** The catalog name for an upstream tool, assigned on first sight and kept while it lives. */
  assign(server: string, tool: string): string;
  /** Forgets a name (its tool left the upstream). */
  release(name: string): void;
  route(name: string): UpstreamRoute | undefined;
  /** The catalog name already assigned to an upstream tool, if any. */
  nameOf(server: string, tool: string): string | undefined;
}

/**
 * Creates the route table. `prefixed` (default) names every tool `server__tool`, so names never
 * change when another server adds a tool; `bare` keeps upstream names and prefixes only a tool
 * whose name is already taken (by an earlier server or a local tool, per `isTaken`).
 */
export function createUpstreamNames(
  naming: NamingOption = "prefixed",
  isTaken: (name: string) => boolean = () => false,
): UpstreamNames {
  const routes = new Map<string, UpstreamRoute>();
  const byUpstream = new Map<string, string>();
  const key = (server: string, tool: string) => `${server}\u0000${tool}`;
  const free = (name: string) => !routes.has(name) && !isTaken(name);

  return {
    assign(server, tool) {
      const known = byUpstream.get(key(server, tool));
      if (known !== undefined) return known;
      const bare = fitLength(sanitize(tool));
      const prefixed = fitLength(`${sanitize(server)}${SEPARATOR}${sanitize(tool)}`);
      let name = naming === "bare" && free(bare) ? bare : prefixed;
      // sanitising can merge two names ("a b" and "a_b"): number the later one
      for (let suffix = 2; !free(name); suffix += 1) name = fitLength(`${prefixed}_${suffix}`);
      routes.set(name, { server, tool });
      byUpstream.set(key(server, tool), name);
      return name;
    },
    release(name) {
      const route = routes.get(name);
      if (!route) return;
      routes.delete(name);
      byUpstream.delete(key(route.server, route.tool));
    },
    route: (name) => routes.get(name),
    nameOf: (server, tool) => byUpstream.get(key(server, tool)),
  };
}
