/**
 * Server→client requests (sampling, elicitation, roots) that an upstream sends while it serves a
 * gateway request go to the client session behind that request, and only to it (see
 * relay-tracker.ts for how that session is known, and when a request is declined instead). The gateway declares the
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
import type { MCPLogEntry } from "../types.js";
import { answerElicitation, type ElicitationHandler } from "./answer-elicitation.js";
import type { ClientRelay, RelayTracker } from "./relay-tracker.js";

// the type lives with the tracker that routes by it; call-scope.ts still imports it from here
export type { ClientRelay } from "./relay-tracker.js";

/** What the gateway tells upstreams it can do: whatever its clients can, relayed. */
export const RELAYED_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

/** Answers one server→client request of `server`: through the one client session it can belong
 * to; with no session involved an elicitation goes to `onElicitation` (else declined) and the
 * rest are refused; when several sessions could own it, it is declined with the reason. */
export function createServerRequestRelay(
  server: string,
  tracker: RelayTracker,
  unrelayed: { onElicitation?: ElicitationHandler | undefined; log: (entry: MCPLogEntry) => void },
): ClientRelay {
  return async (request, signal) => {
    const target = tracker.target(request.method);
    if (target.kind === "unasked") {
      const message = `Server "${server}" sent ${request.method}, and toolsift declined it: ${target.reason}. Ask for it from within a tool call.`;
      unrelayed.log({ level: "warn", server, message });
      throw new McpError(ErrorCode.InvalidRequest, message);
    }
    if (target.kind === "ambiguous") {
      const message = `Server "${server}" sent ${request.method}, and toolsift declined it rather than guess which client session it is for: ${target.reason}. The server's calls from different sessions now take turns, so retry the call.`;
      unrelayed.log({ level: "warn", server, message });
      throw new McpError(ErrorCode.InvalidRequest, message);
    }
    if (target.kind === "none" && request.method === "elicitation/create") {
      return answerElicitation(request, server, signal, unrelayed.onElicitation, unrelayed.log);
    }
    if (target.kind === "none") {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `No client session can answer ${request.method} from server "${server}": toolsift passes it to the client session whose call the server is serving (toolsift serve), and none is. Call the tool from a connected client, or avoid the server feature that needs it.`,
      );
    }
    try {
      return await target.relay(request, signal);
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
