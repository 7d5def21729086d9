/**
 * Which client session a server→client request (sampling, elicitation, roots) of one upstream
 * connection belongs to. Over stdio (and the v1 HTTP client) the request carries no id of the
 * call it serves, so the only sound answer comes from what is in flight: when every call on the
 * connection belongs to one session, the request is that session's; when calls of several
 * sessions are in flight, it is declined with the reason, never guessed. Once a server has sent
 * such a request during a call, the calls of different sessions take turns on its connection
 * (calls of one session still run together), so every later request has exactly one owner.
 */
import type { ServerRequest } from "@modelcontextprotocol/sdk/types.js";

/** Sends one server→client request to a client session and returns its result. `session` is
 * the same object for every relay of one client session: requests are routed by it. */
export type ClientRelay = ((
  request: ServerRequest,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>) & { readonly session?: object };

/** The owner of calls made without a client session (the library, a warm-up): they can
 * receive no relay, but they make a request arriving meanwhile ambiguous all the same. */
const NO_SESSION = Symbol("no session");
type Owner = object | typeof NO_SESSION;

interface InFlight {
  owner: Owner;
  relay: ClientRelay | undefined;
}

/** Where one server→client request goes. */
export type RelayTarget =
  | { kind: "session"; relay: ClientRelay }
  /** No session is involved: the library's own handler (or a refusal) answers. */
  | { kind: "none" }
  /** Several sessions could own it: `reason` says why it is declined. */
  | { kind: "ambiguous"; reason: string }
  /** No client request is being served, and the method may come only during one. */
  | { kind: "unasked"; reason: string };

/** The calls in flight on one upstream connection and the sessions behind them. */
export interface RelayTracker {
  /** Runs `work` as a call of `relay`'s session (waiting for its turn once turns are on). */
  during<T>(
    relay: ClientRelay | undefined,
    work: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T>;
  /** The target of a server→client request of `method` arriving now. */
  target(method: string): RelayTarget;
  /** True once calls of different sessions take turns on this connection. */
  takingTurns(): boolean;
}

const ownerOf = (relay: ClientRelay | undefined): Owner => relay?.session ?? NO_SESSION;

/** Where a server→client request of `method` goes, given the calls in flight on its
 * connection and the connected client sessions. */
function targetOf(
  inFlight: readonly InFlight[],
  connected: () => readonly ClientRelay[],
  method: string,
): RelayTarget {
  const owners = new Set(inFlight.map((entry) => entry.owner));
  if (owners.size > 1) {
    return {
      kind: "ambiguous",
      reason: `calls of ${owners.size} client sessions were in flight on the server's one connection and the request does not say which call it serves`,
    };
  }
  const newest = inFlight.findLast((entry) => entry.relay !== undefined)?.relay;
  if (newest) return { kind: "session", relay: newest };
  if (owners.size === 1) return { kind: "none" };
  // outside any call a server may only ask for roots (servers do after `initialized`):
  // sampling or an elicitation then would put words before a user or a model that no call
  // of theirs asked for, e.g. a form asking for a password (SEP-2260 forbids both)
  if (method !== "roots/list") {
    return {
      kind: "unasked",
      reason: `it came outside any client request (no call or read of the server was in flight), and MCP lets a server send ${method} only while it serves one`,
    };
  }
  // roots outside any call: only a lone client session can be meant
  const sessions = [...new Set(connected().map(ownerOf))];
  const only = connected().at(-1);
  if (sessions.length === 1 && only) return { kind: "session", relay: only };
  if (sessions.length === 0) return { kind: "none" };
  return {
    kind: "ambiguous",
    reason: `it came outside any call while ${sessions.length} client sessions are connected`,
  };
}

/** `connected` lists a relay per connected client session, for requests made outside calls. */
export function createRelayTracker(connected: () => readonly ClientRelay[]): RelayTracker {
  const inFlight: InFlight[] = [];
  const waiting: { entry: InFlight; admit: () => void }[] = [];
  let turns = false;

  const onlyOwner = (owner: Owner) => inFlight.every((entry) => entry.owner === owner);
  /** Admits the first waiting session's calls when the connection is free for it. */
  const admitWaiting = () => {
    const head = waiting[0];
    if (!head || !onlyOwner(head.entry.owner)) return;
    for (const waiter of waiting.filter((w) => w.entry.owner === head.entry.owner)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      inFlight.push(waiter.entry);
      waiter.admit();
    }
  };
  const waitTurn = (entry: InFlight, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = waiting.findIndex((waiter) => waiter.entry === entry);
        if (index < 0) return;
        waiting.splice(index, 1);
        reject(signal?.reason ?? new Error("The call was cancelled while waiting for its turn."));
      };
      waiting.push({
        entry,
        admit: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
    });

  return {
    async during(relay, work, signal) {
      const entry: InFlight = { owner: ownerOf(relay), relay };
      // a session with calls in flight goes on at once: its call may be nested in its own
      // (a client that calls a tool while answering a sampling request) and must not wait
      const ownsTurn = inFlight.some((e) => e.owner === entry.owner);
      if (turns && !ownsTurn && (waiting.length > 0 || !onlyOwner(entry.owner))) {
        await waitTurn(entry, signal);
      } else {
        inFlight.push(entry);
      }
      try {
        return await work();
      } finally {
        inFlight.splice(inFlight.indexOf(entry), 1);
        admitWaiting();
      }
    },
    target(method) {
      if (inFlight.length > 0) turns = true;
      return targetOf(inFlight, connected, method);
    },
    takingTurns: () => turns,
  };
}
