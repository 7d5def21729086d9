/**
 * `createUpstreamCatalog`: keeps the upstream servers' tools in a ToolSift's catalog as each
 * server lists them (at start, on `list_changed`, after a restart): names them, holds back the
 * ones pinning refuses, replaces what changed and removes what is gone.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import picomatch from "picomatch";
import {
  fingerprintTool,
  type ToolAnnotations,
  type ToolCallContext,
  type ToolDefinition,
  type ToolResult,
} from "../../catalog/index.js";
import type { ToolSift } from "../../create-toolsift.js";
import { isToolsiftError } from "../../errors.js";
import type { MCPLogEntry, UpstreamRoute, UpstreamServerConfig } from "../types.js";
import { type HeldTool, screenTools, type ToolPins } from "./tool-pins.js";
import type { UpstreamNames } from "./upstream-names.js";

/** What the catalog of upstream tools works with. */
export interface UpstreamCatalogOptions {
  sift: ToolSift;
  names: UpstreamNames;
  /** The enabled servers' configs, in config order. */
  configs: ReadonlyMap<string, UpstreamServerConfig>;
  pins: ToolPins | undefined;
  log: (entry: MCPLogEntry) => void;
  /** The routing call every catalog tool's handler goes through. */
  call: (
    name: string,
    args: Record<string, unknown>,
    context?: ToolCallContext,
  ) => Promise<ToolResult>;
  /** Called after a server's tools were (re)placed in the catalog. */
  onPlaced: (server: string) => void;
}

/** The upstream tools' state beside the catalog itself. */
export interface UpstreamCatalog extends UpstreamCatalogOptions {
  /** What each server listed last, to name its tools again when an earlier server claims one. */
  readonly lastListed: Map<string, readonly Tool[]>;
  /** Catalog name → the tool as its upstream listed it. */
  readonly originals: Map<string, Tool>;
  /** Server → the catalog names its tools hold now. */
  readonly owned: Map<string, Set<string>>;
  /** Catalog name → the tool pinning holds back, and why. */
  readonly held: Map<string, UpstreamRoute & { verdict: HeldTool["verdict"] }>;
}

/** Why pinning holds a tool back, completing "Tool "x" …". */
const HELD_WHY: Record<HeldTool["verdict"], string> = {
  changed: "changed its title, annotations, description or schema since it was approved",
  new: "is new: its server added it after its tools were approved",
  outdated:
    "was approved before pinning covered titles and annotations, and it has a title or annotations",
};

/** An empty catalog of upstream tools; servers' listings go in with `syncTools`. */
export function createUpstreamCatalog(options: UpstreamCatalogOptions): UpstreamCatalog {
  return {
    ...options,
    lastListed: new Map(),
    originals: new Map(),
    owned: new Map(),
    held: new Map(),
  };
}

/** Takes a server's listing: claims its bare names (config order decides who owns one), names
 * again the tools of servers whose names that changed, then places the server's tools. */
export function syncTools(
  catalog: UpstreamCatalog,
  server: string,
  config: UpstreamServerConfig,
  listed: readonly Tool[],
): void {
  catalog.lastListed.set(server, listed);
  renameStale(
    catalog,
    catalog.names.claim(
      server,
      listed.map((tool) => tool.name),
    ),
  );
  placeTools(catalog, server, config, listed);
}

/** Places again the tools of `stale` servers, whose names changed hands. */
export function renameStale(catalog: UpstreamCatalog, stale: readonly string[]): void {
  for (const other of stale) {
    const config = catalog.configs.get(other);
    if (config) placeTools(catalog, other, config, catalog.lastListed.get(other) ?? []);
  }
}

/** Why a call to `name` is refused when pinning holds the tool back; undefined otherwise. */
export function heldMessage(catalog: UpstreamCatalog, name: string): string | undefined {
  const route = catalog.held.get(name);
  const { pins } = catalog;
  if (!route || !pins) return undefined;
  return `Tool "${name}" (tool "${route.tool}" of server "${route.server}") ${HELD_WHY[route.verdict]}, so the gateway holds it back. Review it, run: ${pins.approveCommand(route.server, route.tool)}, then restart the gateway.`;
}

/** Sorts listed tools into those to publish and those held back (pinning on). */
function screen(catalog: UpstreamCatalog, server: string, tools: readonly Tool[]): Tool[] {
  const { pins, held, log } = catalog;
  if (!pins) return [...tools];
  for (const [name, route] of held) if (route.server === server) held.delete(name);
  const screened = screenTools(pins, server, tools, (error) => {
    log({ level: "error", server, message: `Cannot write ${pins.file}: ${String(error)}` });
  });
  for (const { tool, verdict } of screened.held) {
    held.set(catalog.names.assign(server, tool.name), { server, tool: tool.name, verdict });
    log({
      level: "warn",
      server,
      message: `Tool "${tool.name}" ${HELD_WHY[verdict]} and is held back; review it, then run: ${pins.approveCommand(server, tool.name)}`,
    });
  }
  return screened.kept;
}

function profilesOf(config: UpstreamServerConfig): string[] | undefined {
  if (config.profile === undefined) return undefined;
  return typeof config.profile === "string" ? [config.profile] : [...config.profile];
}

/** The catalog entry of an upstream tool, named and with the server's config applied. */
function toDefinition(
  catalog: UpstreamCatalog,
  server: string,
  config: UpstreamServerConfig,
  tool: Tool,
): ToolDefinition {
  const name = catalog.names.assign(server, tool.name);
  const pinned = config.neverDefer?.some((pattern) => picomatch.isMatch(tool.name, pattern));
  const profiles = profilesOf(config);
  const title = tool.title ?? tool.annotations?.title;
  return {
    name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
    server,
    ...(title !== undefined ? { title } : {}),
    ...(tool.annotations ? { annotations: tool.annotations as ToolAnnotations } : {}),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(pinned ? { defer: "never" as const } : config.defer ? { defer: config.defer } : {}),
    ...(profiles ? { profiles } : {}),
    handler: (args, context) => catalog.call(name, args, context),
  };
}

/** Makes the catalog hold exactly `tools` for `server`: adds, replaces changed, removes gone. */
function placeTools(
  catalog: UpstreamCatalog,
  server: string,
  config: UpstreamServerConfig,
  listed: readonly Tool[],
): void {
  const { sift, names, originals } = catalog;
  const previous = catalog.owned.get(server) ?? new Set<string>();
  const current = new Set<string>();
  for (const tool of screen(catalog, server, listed)) {
    const definition = toDefinition(catalog, server, config, tool);
    try {
      const existing = sift.catalog.get(definition.name);
      if (!existing || fingerprintTool(existing) !== fingerprintTool(definition)) {
        sift.catalog.replace(definition);
      }
      current.add(definition.name);
      originals.set(definition.name, tool);
    } catch (error) {
      if (!isToolsiftError(error)) throw error;
      names.release(definition.name);
      catalog.log({
        level: "warn",
        server,
        message: `Skipped tool "${tool.name}": ${error.message}`,
      });
    }
  }
  for (const name of previous) {
    if (current.has(name)) continue;
    // a bare name taken over by an earlier server (config order) is that server's now
    const route = names.route(name);
    if (route !== undefined && route.server !== server) continue;
    sift.catalog.remove(name);
    originals.delete(name);
    // a held tool keeps its name, so a call to it says why it is refused
    if (!catalog.held.has(name)) names.release(name);
  }
  catalog.owned.set(server, current);
  catalog.onPlaced(server);
}
