/**
 * The pass-through half of a gateway session: resources, resource templates, prompts and
 * completion answered from the upstreams, and the relay that carries an upstream's sampling,
 * elicitation and roots requests to this session's client.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ResultSchema,
  RootsListChangedNotificationSchema,
  type ServerRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import { toClientError } from "./client-error.js";
import type { ResourceSubscriptions } from "./resource-subscriptions.js";

/** What a session's server declares besides tools and logging. */
export const PASS_THROUGH_CAPABILITIES = {
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
} as const;

/** The result schema the client's answer to an upstream's request is checked against. */
function resultSchemaOf(request: ServerRequest) {
  switch (request.method) {
    case "sampling/createMessage":
      return request.params.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
    case "elicitation/create":
      return ElicitResultSchema;
    case "roots/list":
      return ListRootsResultSchema;
    default:
      return ResultSchema;
  }
}

type SendRequest = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1]["sendRequest"];

const NEEDED = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
} as const;

/** A relay to `server`'s client sending through `send`: a request handler's `extra.sendRequest`
 * (tied to the client request being served, so over HTTP it travels on that request's stream)
 * or the server's own `request`. A client that did not declare the capability is not asked. */
export function relayThrough(server: Server, send: SendRequest | Server["request"]): ClientRelay {
  // every relay of this session carries the session's server, so requests are routed by session
  const relay = (request: ServerRequest, signal: AbortSignal) => {
    const needed = NEEDED[request.method as keyof typeof NEEDED];
    if (needed !== undefined && server.getClientCapabilities()?.[needed] === undefined) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `An upstream server sent ${request.method}, but this client did not declare the "${needed}" capability; use a client that supports it.`,
      );
    }
    return (send as SendRequest)(request, resultSchemaOf(request), { signal }) as Promise<
      Record<string, unknown>
    >;
  };
  return Object.assign(relay, { session: server });
}

/** The registry each session's subscriptions are kept in (its ToolSift's). */
const registries = new WeakMap<Server, ResourceSubscriptions>();

/** Whether the session's client subscribed to the resource URI. */
export function isSubscribed(server: Server, uri: string): boolean {
  return registries.get(server)?.has(server, uri) ?? false;
}

/** Registers the pass-through handlers on one session's server. */
export function registerPassThrough(server: Server, sift: MCPToolSift): void {
  const { features } = sift.upstreams;
  const { subscriptions } = features;
  registries.set(server, subscriptions);
  // a session that ends lets go of its subscriptions (the upstream keeps those others hold)
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    void subscriptions.release(server);
  };
  const ask = (extra: { signal: AbortSignal; sendRequest: SendRequest }) => ({
    signal: extra.signal,
    relay: relayThrough(server, extra.sendRequest),
  });

  // errors go to the client with their code and without the SDK's "MCP error" prefix, which
  // the client's SDK adds again
  const handle: Server["setRequestHandler"] = (schema, handler) =>
    server.setRequestHandler(schema, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw toClientError(error);
      }
    });

  handle(ListResourcesRequestSchema, async (_request, extra) => ({
    resources: await features.listResources(ask(extra)),
  }));
  handle(ListResourceTemplatesRequestSchema, async (_request, extra) => ({
    resourceTemplates: await features.listResourceTemplates(ask(extra)),
  }));
  handle(ReadResourceRequestSchema, (request, extra) =>
    features.readResource(request.params.uri, ask(extra)),
  );
  handle(SubscribeRequestSchema, async (request, extra) => {
    await subscriptions.add(server, request.params.uri, ask(extra));
    return {};
  });
  handle(UnsubscribeRequestSchema, async (request, extra) => {
    await subscriptions.remove(server, request.params.uri, ask(extra));
    return {};
  });
  handle(ListPromptsRequestSchema, async (_request, extra) => ({
    prompts: await features.listPrompts(ask(extra)),
  }));
  handle(GetPromptRequestSchema, (request, extra) =>
    features.getPrompt(request.params.name, request.params.arguments, ask(extra)),
  );
  handle(CompleteRequestSchema, (request, extra) => features.complete(request.params, ask(extra)));
  // the client's roots changed: every upstream that may have asked for them asks again
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    for (const status of sift.upstreams.status()) {
      await sift.upstreams
        .server(status.server)
        ?.client()
        ?.sendRootsListChanged()
        .catch(() => undefined);
    }
  });
}
