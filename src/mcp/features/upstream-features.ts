/**
 * Resources, resource templates, prompts and completion of every upstream, aggregated for the
 * gateway's clients and routed back. Prompt names follow the tools' naming (`server__prompt` by
 * default, reversible through a route table); resource URIs stay as the server wrote them (a URI
 * already names its own scheme and authority, and clients read what they were given), routed by
 * the server that listed the URI or whose template matches it, else by asking the servers.
 */
import {
  type ClientRequest,
  CompleteResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  McpError,
  type Prompt,
  ReadResourceResultSchema,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { LRUCache } from "../../internal/index.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import { createUpstreamNames, type NamingOption } from "../tools/upstream-names.js";
import type { UpstreamServer } from "../upstream/upstream-server.js";
import { probeResource } from "./probe-resource.js";
import {
  createResourceSubscriptions,
  type ResourceSubscriptions,
} from "./resource-subscriptions.js";

/** Who asks, for server→client requests the upstream sends while answering. */
export interface FeatureRequestOptions {
  signal?: AbortSignal;
  relay?: ClientRelay;
}

/** The aggregated resources, prompts and completion of the upstreams. */
export interface UpstreamFeatures {
  listResources(options?: FeatureRequestOptions): Promise<Resource[]>;
  listResourceTemplates(options?: FeatureRequestOptions): Promise<ResourceTemplate[]>;
  readResource(uri: string, options?: FeatureRequestOptions): Promise<Record<string, unknown>>;
  /** Subscribes (or unsubscribes) on the server that owns the URI. */
  subscribe(uri: string, on: boolean, options?: FeatureRequestOptions): Promise<void>;
  /** The client sessions' subscriptions, bounded per session and counted per URI upstream. */
  readonly subscriptions: ResourceSubscriptions<FeatureRequestOptions>;
  listPrompts(options?: FeatureRequestOptions): Promise<Prompt[]>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options?: FeatureRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** `completion/complete`; `params.ref` is in the gateway's names. */
  complete(
    params: Extract<ClientRequest, { method: "completion/complete" }>["params"],
    options?: FeatureRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** The server that owns a resource URI, if known. */
  resourceServer(uri: string): string | undefined;
}

const MAX_PAGES = 100;

/** A regular expression for an RFC 6570 template: literal parts exact, each `{…}` any text. */
function templatePattern(template: string): RegExp {
  const parts = template
    .split(/\{[^}]*\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s");
}

type Servers = () => ReadonlyMap<string, UpstreamServer>;

/** The servers that are up and declared `feature`; lazy ones that never started are skipped. */
function offering(servers: Servers, feature: "resources" | "prompts"): UpstreamServer[] {
  return [...servers().values()].filter((server) => server.capabilities()?.[feature] !== undefined);
}

/** Every page of a list, following the server's cursors (a repeated cursor stops). */
async function listPages<S extends z.ZodType, T>(
  server: UpstreamServer,
  method: "resources/list" | "resources/templates/list" | "prompts/list",
  schema: S,
  pick: (result: z.infer<S>) => { items: T[]; nextCursor?: string | undefined },
  options: FeatureRequestOptions,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = pick(
      await server.request(
        { method, params: cursor === undefined ? {} : { cursor } } as ClientRequest,
        schema,
        options,
      ),
    );
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return items;
}

/** Lists from every offering server in parallel; a failing server is left out, not fatal. */
async function gather<T>(
  servers: Servers,
  feature: "resources" | "prompts",
  list: (server: UpstreamServer) => Promise<T[]>,
): Promise<[string, T[]][]> {
  const results = await Promise.allSettled(
    offering(servers, feature).map(
      async (server) => [server.name, await list(server)] as [string, T[]],
    ),
  );
  return results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
}

// URIs found by asking the servers are remembered, most recent first: clients choose them, so
// the memory of them is bounded (a listed or template URI needs no memory)
const PROBED_OWNERS = 10_000;

/** Which server owns a resource URI: listed, matched by a template, or found by asking. */
function createResourceRouter(servers: Servers) {
  const listed = new Map<string, string>();
  const probed = new LRUCache<string, string>(PROBED_OWNERS);
  const templates = new Map<string, { server: string; pattern: RegExp }>();

  const listTemplates = async (options: FeatureRequestOptions = {}) => {
    const lists = await gather(servers, "resources", (server) =>
      listPages(
        server,
        "resources/templates/list",
        ListResourceTemplatesResultSchema,
        (r) => ({ items: r.resourceTemplates, nextCursor: r.nextCursor }),
        options,
      ),
    );
    templates.clear();
    for (const [server, items] of lists) {
      for (const item of items) {
        if (!templates.has(item.uriTemplate)) {
          templates.set(item.uriTemplate, { server, pattern: templatePattern(item.uriTemplate) });
        }
      }
    }
    return lists.flatMap(([, items]) => items);
  };

  const ownerName = (uri: string) => {
    const owner = listed.get(uri) ?? probed.get(uri);
    if (owner !== undefined) return owner;
    for (const { server, pattern } of templates.values()) if (pattern.test(uri)) return server;
    return undefined;
  };

  /** The server for a URI: the one that listed it, else one whose template matches, else the
   * only server with resources; undefined when several might have it. */
  const knownOwner = async (uri: string, options: FeatureRequestOptions) => {
    let owner = ownerName(uri);
    if (owner === undefined) {
      await listTemplates(options);
      owner = ownerName(uri);
    }
    if (owner !== undefined) return servers().get(owner);
    const candidates = offering(servers, "resources");
    return candidates.length === 1 ? candidates[0] : undefined;
  };

  /** Reads a URI nobody listed from whichever offering server has it, and remembers that one:
   * a client may read a URI it knows without listing first (one process per call). */
  const probe = async (uri: string, options: FeatureRequestOptions) => {
    const found = await probeResource(uri, offering(servers, "resources"), options);
    probed.set(uri, found.server.name);
    return found;
  };

  return {
    listTemplates,
    knownOwner,
    probe,
    ownerOf: async (uri: string, options: FeatureRequestOptions): Promise<UpstreamServer> =>
      (await knownOwner(uri, options)) ?? (await probe(uri, options)).server,
    /** Remembers the servers of listed URIs (the first server to list a URI keeps it). */
    remember(lists: [string, Resource[]][]) {
      for (const [server, items] of lists) {
        for (const item of items) if (!listed.has(item.uri)) listed.set(item.uri, server);
      }
    },
    resourceServer: (uri: string) => listed.get(uri) ?? probed.get(uri),
  };
}

/** Prompts of every server under the tools' naming, and the route back from a gateway name. */
function createPromptRouter(servers: Servers, naming: NamingOption | undefined) {
  const prompts = createUpstreamNames(naming);
  const listPrompts = async (options: FeatureRequestOptions = {}) => {
    const lists = await gather(servers, "prompts", (server) =>
      listPages(
        server,
        "prompts/list",
        ListPromptsResultSchema,
        (r) => ({ items: r.prompts, nextCursor: r.nextCursor }),
        options,
      ),
    );
    return lists.flatMap(([server, items]) =>
      items.map((prompt) => ({ ...prompt, name: prompts.assign(server, prompt.name) })),
    );
  };

  /** The server and upstream name of a prompt; a client may use a name before listing (the
   * names are stable), so an unknown name is looked for in a fresh list first. */
  const promptRoute = async (name: string, options: FeatureRequestOptions) => {
    if (prompts.route(name) === undefined) await listPrompts(options);
    const route = prompts.route(name);
    const server = route && servers().get(route.server);
    if (!route || !server) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `No upstream server offers the prompt "${name}"; list prompts again.`,
      );
    }
    return { server, prompt: route.tool };
  };
  return { listPrompts, promptRoute };
}

export function createUpstreamFeatures(
  servers: Servers,
  naming: NamingOption | undefined,
  limits: { maxSubscriptions: number },
): UpstreamFeatures {
  const resources = createResourceRouter(servers);
  const { listPrompts, promptRoute } = createPromptRouter(servers, naming);

  const subscribe = async (uri: string, on: boolean, options: FeatureRequestOptions = {}) => {
    const server = await resources.ownerOf(uri, options);
    await server.request(
      { method: on ? "resources/subscribe" : "resources/unsubscribe", params: { uri } },
      EmptyResultSchema,
      options,
    );
  };

  return {
    async listResources(options = {}) {
      const lists = await gather(servers, "resources", (server) =>
        listPages(
          server,
          "resources/list",
          ListResourcesResultSchema,
          (r) => ({ items: r.resources, nextCursor: r.nextCursor }),
          options,
        ),
      );
      resources.remember(lists);
      return lists.flatMap(([, items]) => items);
    },
    listResourceTemplates: resources.listTemplates,
    async readResource(uri, options = {}) {
      const server = await resources.knownOwner(uri, options);
      if (!server) return (await resources.probe(uri, options)).result;
      return server.request(
        { method: "resources/read", params: { uri } },
        ReadResourceResultSchema,
        options,
      );
    },
    subscribe,
    subscriptions: createResourceSubscriptions(subscribe, {
      maxPerSession: limits.maxSubscriptions,
    }),
    listPrompts,
    async getPrompt(name, args, options = {}) {
      const { server, prompt } = await promptRoute(name, options);
      return server.request(
        { method: "prompts/get", params: { name: prompt, ...(args ? { arguments: args } : {}) } },
        GetPromptResultSchema,
        options,
      );
    },
    async complete(params, options = {}) {
      const { ref } = params;
      if (ref.type === "ref/prompt") {
        const { server, prompt } = await promptRoute(ref.name, options);
        return server.request(
          { method: "completion/complete", params: { ...params, ref: { ...ref, name: prompt } } },
          CompleteResultSchema,
          options,
        );
      }
      const server = await resources.ownerOf(ref.uri, options);
      return server.request(
        { method: "completion/complete", params },
        CompleteResultSchema,
        options,
      );
    },
    resourceServer: resources.resourceServer,
  };
}
