/**
 * The HTTP gateway's hooks when replicas share a `SessionStore`: each new session is stored
 * before its `initialize` is answered; a request for a session this replica does not hold
 * re-creates it from the store; each request reads the session's reveals first and extends its
 * expiry; DELETE ends it on every replica; and what a session sends to a client stream held by
 * another replica (list_changed, logging, requests outside calls) travels over the store's bus,
 * as do the client's answers to requests another replica sent.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { SpillStoreOptions } from "../../budget/index.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import type { HttpSession } from "../serve/http-session.js";
import { CALL_STREAM_DEFAULTS, type CallStreamOptions } from "./call-streams.js";
import {
  adoptSession,
  awaitsResponse,
  forStandaloneStream,
  responsesOnly,
  sessionRecord,
} from "./replica-sessions.js";
import type { SessionRecord, SessionStore } from "./session-store.js";
import { createSharedBudgets } from "./shared-budgets.js";
import { createSharedReveals, type SharedReveals } from "./shared-reveals.js";
import { createSharedSpills, type SharedSpills } from "./shared-spills.js";

/** The shared state of a replicated gateway: pass `reveals.revealStore` as the sift's
 * `disclosure.store`, so reveals reach the store, and `spills.spillStore` as its `budget.spill`
 * when results that are cut should be kept (readable with `tool_result_read` on any replica).
 * Result budgets and recorder events are shared by the gateway itself. */
export interface ReplicaState {
  store: SessionStore;
  reveals: SharedReveals;
  spills: SharedSpills;
  /** The replicas' heartbeats, by which a call whose replica died is answered elsewhere. */
  calls: Required<CallStreamOptions>;
}

/** The replica state over `store`; `spill` sizes the local copies of spilled results, `calls`
 * times the heartbeats (`CALL_STREAM_DEFAULTS`). */
export function createReplicaState(
  store: SessionStore,
  options: { spill?: SpillStoreOptions; calls?: CallStreamOptions } = {},
): ReplicaState {
  return {
    store,
    reveals: createSharedReveals(store),
    spills: createSharedSpills(store, options.spill),
    calls: { ...CALL_STREAM_DEFAULTS, ...options.calls },
  };
}

/** The bus messages between replicas. */
const END = "end";
const SEND = "send";
const RESPONSES = "responses";

/** The hooks `createHttpGateway` calls when it has a `state`. */
export function replicaHooks(state: ReplicaState, options: { mode: string; sift: MCPToolSift }) {
  const { store, reveals, spills } = state;
  const { mode } = options;
  const budgets = createSharedBudgets(store, options.sift.results);
  return {
    /** Stores a session being initialized (the SDK awaits it before answering). */
    created: (sessionId: string, body: unknown, owner: Pick<SessionRecord, "user" | "profile">) =>
      store.putSession({ ...sessionRecord(sessionId, body, mode), ...owner }),

    /** Re-creates a stored session here; undefined when the store does not know it. */
    adopt: async (id: string, open: () => Promise<HttpSession>) => {
      const record = await store.getSession(id);
      if (!record) return undefined;
      const entry = await open();
      entry.user = record.user;
      entry.profile = record.profile;
      adoptSession(entry.transport, entry.server, record);
      return entry;
    },

    /** Before a request: the session's reveals and expiry. Returns true when the request was
     * answered here: client answers to another replica's requests are passed on the bus. */
    before: async (
      entry: HttpSession,
      request: IncomingMessage,
      response: ServerResponse,
      body: unknown,
    ): Promise<boolean> => {
      const id = entry.transport.sessionId;
      if (id === undefined) return false;
      await Promise.all([
        reveals.hydrate(id),
        store.touchSession(id),
        budgets.hydrate(id),
        spills.hydrate(id, body),
      ]);
      const answers = request.method === "POST" ? responsesOnly(body) : undefined;
      if (!answers || answers.every((answer) => awaitsResponse(entry.server, answerId(answer)))) {
        return false;
      }
      await store.publish({ target: id, kind: RESPONSES, payload: answers });
      response.writeHead(202).end();
      return true;
    },

    /** After a call, before its result is sent: what it revealed, spilled and spent is in the
     * store (the client's next request may reach another replica). */
    settle: async (id: string) => {
      await Promise.all([reveals.flush(id), spills.flush(id), budgets.flush(id)]);
    },

    /** The session ended on this replica (it may go on elsewhere). */
    ended: (id: string) => budgets.forget(id),

    /** After a request: a DELETE ends the session on every replica and in the store. */
    after: async (entry: HttpSession, request: IncomingMessage) => {
      const id = entry.transport.sessionId;
      if (request.method !== "DELETE" || id === undefined) return;
      await store.deleteSession(id);
      await store.publish({ target: id, kind: END });
    },

    /** Sends what is meant for the client's standalone stream over the bus when that stream is
     * not open here (the replica holding it writes it). */
    wrapSend: (entry: HttpSession) => {
      const { transport } = entry;
      const send = transport.send.bind(transport);
      (entry as HttpSession & { sendHere?: typeof send }).sendHere = send;
      transport.send = async (message, options) => {
        const id = transport.sessionId;
        if (entry.streams > 0 || id === undefined || !forStandaloneStream(message, options)) {
          return send(message, options);
        }
        await store.publish({ target: id, kind: SEND, payload: message }).catch(() => undefined);
      };
    },
  };
}

function answerId(message: JSONRPCMessage): unknown {
  return (message as { id?: unknown }).id;
}

/** Acts on other replicas' bus messages for the sessions held here; returns the unsubscribe. */
export function listenToReplicas(
  state: ReplicaState,
  sessions: Map<string, HttpSession>,
): () => void {
  return state.store.subscribe((message) => {
    if (message.from === state.store.replica) return;
    const entry = sessions.get(message.target) as
      | (HttpSession & { sendHere?: HttpSession["transport"]["send"] })
      | undefined;
    if (!entry) return;
    if (message.kind === END) {
      entry.server.close().catch(() => undefined);
    } else if (message.kind === SEND && entry.streams > 0) {
      entry.sendHere?.(message.payload as JSONRPCMessage).catch(() => undefined);
    } else if (message.kind === RESPONSES) {
      for (const answer of message.payload as JSONRPCMessage[]) {
        if (awaitsResponse(entry.server, answerId(answer))) entry.transport.onmessage?.(answer);
      }
    }
  });
}
