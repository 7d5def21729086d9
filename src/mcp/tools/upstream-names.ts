/**
 * Catalog names for upstream tools: `server__tool` by default, sanitised to the catalog's strict
 * name rule, unique, and reversible through the route table (never by parsing the name).
 */
import { hashString } from "../../catalog/index.js";
import type { UpstreamRoute } from "../types.js";

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
  /** The catalog name for an upstream tool, assigned on first sight and kept while it lives
   * (with `bare`, until `claim` or `settle` says its server must re-assign). */
  assign(server: string, tool: string): string;
  /** `bare`: records the tools `server` lists now. Returns the other servers whose names are no
   * longer right (a bare name that now belongs to an earlier server, or a prefixed one that may
   * now be bare); assign theirs again before this server's. */
  claim(server: string, tools: readonly string[]): string[];
  /** `bare`: `server` failed to start, so it no longer blocks later servers' bare names.
   * Returns the servers to assign again, as `claim` does. */
  settle(server: string): string[];
  /** Forgets a name (its tool left the upstream). */
  release(name: string): void;
  route(name: string): UpstreamRoute | undefined;
  /** The catalog name already assigned to an upstream tool, if any. */
  nameOf(server: string, tool: string): string | undefined;
}

/** Whether `server` may use `bare`: no server before it in `order` claims the name (lists a tool
 * of that bare name) or is still to list (has not claimed and not settled). */
function bareIsFree(
  order: readonly string[],
  claims: ReadonlyMap<string, ReadonlySet<string>>,
  settled: ReadonlySet<string>,
  server: string,
  bare: string,
): boolean {
  const position = order.indexOf(server);
  for (const earlier of order.slice(0, Math.max(position, 0))) {
    const claimed = claims.get(earlier);
    if (claimed ? claimed.has(bare) : !settled.has(earlier)) return false;
  }
  return true;
}

/**
 * Creates the route table. `prefixed` (default) names every tool `server__tool`, so names never
 * change when another server adds a tool; `bare` keeps upstream names and prefixes only a tool
 * whose name is taken (by a local tool, per `isTaken`, or a server earlier in `order`).
 *
 * With `bare`, a bare name belongs to the first server in `order` (the config's) that lists the
 * tool, never to whichever lists first: a later server gets bare names only once every earlier
 * one has listed (`claim`) or failed (`settle`), so a fast hostile server cannot take
 * `read_file` from a trusted one that is still starting or restarting. A server missing from
 * `order` (prompts) takes a free bare name on first sight.
 */
export function createUpstreamNames(
  naming: NamingOption = "prefixed",
  isTaken: (name: string) => boolean = () => false,
  order: readonly string[] = [],
): UpstreamNames {
  const routes = new Map<string, UpstreamRoute>();
  const byUpstream = new Map<string, string>();
  /** Per server that has listed: the bare names of its tools. */
  const claims = new Map<string, Set<string>>();
  const settled = new Set<string>();
  const key = (server: string, tool: string) => `${server}\u0000${tool}`;
  const bareOf = (tool: string) => fitLength(sanitize(tool));
  const ours = (name: string, server: string, tool: string) => {
    const route = routes.get(name);
    return route !== undefined && route.server === server && route.tool === tool;
  };
  const free = (name: string) => !routes.has(name) && !isTaken(name);

  const mayUseBare = (server: string, bare: string) =>
    bareIsFree(order, claims, settled, server, bare);

  /** Whether the name assigned to (server, tool) is still the one `assign` would pick. */
  const isRight = (name: string, server: string, tool: string) => {
    if (naming !== "bare") return true;
    const bare = bareOf(tool);
    const wantsBare = mayUseBare(server, bare) && (ours(bare, server, tool) || free(bare));
    return (name === bare) === wantsBare;
  };

  const release = (name: string) => {
    const route = routes.get(name);
    if (!route) return;
    routes.delete(name);
    byUpstream.delete(key(route.server, route.tool));
  };

  /** The servers (other than `except`) holding a name that is no longer right. */
  const stale = (except: string) => {
    const found = new Set<string>();
    for (const [name, route] of routes) {
      if (route.server !== except && !isRight(name, route.server, route.tool)) {
        found.add(route.server);
      }
    }
    return order.filter((server) => found.has(server));
  };

  return {
    assign(server, tool) {
      const known = byUpstream.get(key(server, tool));
      if (known !== undefined) {
        if (isRight(known, server, tool)) return known;
        release(known);
      }
      const bare = bareOf(tool);
      const prefixed = fitLength(`${sanitize(server)}${SEPARATOR}${sanitize(tool)}`);
      let name = naming === "bare" && mayUseBare(server, bare) && free(bare) ? bare : prefixed;
      // sanitising can merge two names ("a b" and "a_b"): number the later one
      for (let suffix = 2; !free(name); suffix += 1) name = fitLength(`${prefixed}_${suffix}`);
      routes.set(name, { server, tool });
      byUpstream.set(key(server, tool), name);
      return name;
    },
    claim(server, tools) {
      if (naming !== "bare") return [];
      claims.set(server, new Set(tools.map(bareOf)));
      settled.add(server);
      return stale(server);
    },
    settle(server) {
      if (naming !== "bare" || settled.has(server)) return [];
      settled.add(server);
      return stale(server);
    },
    release,
    route: (name) => routes.get(name),
    nameOf: (server, tool) => byUpstream.get(key(server, tool)),
  };
}
