/**
 * Server→client requests (sampling, elicitation, roots) that an upstream sends while it serves a
 * gateway request go to the client session behind that request; those sent outside any request
 * (roots right after `initialize`) go to the most recent client session. The gateway declares the
 * capabilities upstream so servers offer the features that need them; a client without the
 * capability gets the upstream's request refused with a message naming it.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { answerElicitation, type ElicitationHandler } from "./answer-elicitation.js";
import type { MCPLogEntry } from "./types.js";

/** Sends one server→client request to a client session and returns its result. */
export type ClientRelay = (
  request: ServerRequest,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/** What the gateway tells upstreams it can do: whatever its clients can, relayed. */
export const RELAYED_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

/** The relays of the requests in flight on one upstream, newest last. */
export interface RelayTracker {
  /** Runs `work` with `relay` as the target of the upstream's requests meanwhile. */
  during<T>(relay: ClientRelay | undefined, work: () => Promise<T>): Promise<T>;
  /** The relay for a request arriving now: the newest in flight, else the fallback. */
  current(): ClientRelay | undefined;
}

export function createRelayTracker(fallback: () => ClientRelay | undefined): RelayTracker {
  const inFlight: ClientRelay[] = [];
  return {
    async during(relay, work) {
      if (!relay) return work();
      inFlight.push(relay);
      try {
        return await work();
      } finally {
        inFlight.splice(inFlight.lastIndexOf(relay), 1);
      }
    },
    current: () => inFlight.at(-1) ?? fallback(),
  };
}

/** Answers one server→client request of `server`: through the client session in flight (or the
 * newest), else an elicitation goes to `onElicitation` (else declined), else it is refused. */
export function createServerRequestRelay(
  server: string,
  tracker: RelayTracker,
  unrelayed: { onElicitation?: ElicitationHandler | undefined; log: (entry: MCPLogEntry) => void },
): ClientRelay {
  return async (request, signal) => {
    const target = tracker.current();
    if (!target && request.method === "elicitation/create") {
      return answerElicitation(request, server, signal, unrelayed.onElicitation, unrelayed.log);
    }
    if (!target) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `No client session can answer ${request.method} from server "${server}": toolsift passes it to a client connected to its gateway (toolsift serve), and none is. Connect one and try again, or avoid the server feature that needs it.`,
      );
    }
    try {
      return await target(request, signal);
    } catch (error) {
      if (error instanceof McpError) throw error;
      // the SDK refuses a method the client did not declare with a plain Error
      throw new McpError(
        ErrorCode.InvalidRequest,
        `The client cannot answer ${request.method} for server "${server}": ${(error as Error).message}`,
      );
    }
  };
}

/** Makes `client` (a legacy upstream connection) pass sampling, elicitation and roots on. */
export function installClientRelay(client: Client, relay: ClientRelay): void {
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    relay(request as ServerRequest, extra.signal),
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    relay(request as ServerRequest, extra.signal),
  );
  client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
    relay(request as ServerRequest, extra.signal),
  );
}
