/**
 * The life of one upstream connection as a named state machine: every state it can be in, and
 * every move between states, in the one table below. The files that drive an upstream
 * (`upstream-server.ts`, `start-upstream.ts`, `upstream-run.ts`) change state only through
 * `advance`, so a move the table does not list (a call restarting a closed server, a
 * second start racing the first) is refused with the state and event named instead of leaving
 * the server half in two states.
 *
 * The usual life: idle → starting → ready → down (the connection closed) → restarting → ready.
 *
 * `needs_login`: the server asked for credentials (HTTP 401 with an OAuth challenge). Nothing
 * restarts it by itself; the login flow (src/mcp/auth/) sends `loggedIn`, which starts it again.
 */

/** Where an upstream is in its life. */
export type UpstreamState =
  /** Created, nothing started yet (a lazy server before its first call). */
  | "idle"
  /** Connecting, initializing and listing its tools for the first time. */
  | "starting"
  /** Connected; calls go through. */
  | "ready"
  /** Connecting again after it went down. */
  | "restarting"
  /** Not connected: the start failed or the connection closed; the next call restarts it,
   * within the restart limits. */
  | "down"
  /** Waiting for the user to log in (OAuth); calls say so instead of restarting it. */
  | "needs_login"
  /** Closed by the gateway; never starts again. */
  | "closed";

/** What happens to an upstream. */
export type UpstreamEvent =
  | "start"
  | "connected"
  | "failed"
  | "lost"
  | "restart"
  | "needsLogin"
  | "loggedIn"
  | "close";

/** Every legal move: `TRANSITIONS[state][event]` is the next state; a missing entry is illegal. */
export const TRANSITIONS: Readonly<
  Record<UpstreamState, Readonly<Partial<Record<UpstreamEvent, UpstreamState>>>>
> = {
  idle: { start: "starting", close: "closed" },
  starting: { connected: "ready", failed: "down", needsLogin: "needs_login", close: "closed" },
  ready: { lost: "down", needsLogin: "needs_login", close: "closed" },
  restarting: {
    connected: "ready",
    failed: "down",
    needsLogin: "needs_login",
    close: "closed",
  },
  down: { restart: "restarting", close: "closed" },
  needs_login: { loggedIn: "starting", close: "closed" },
  // closing twice is harmless (the gateway and a signal may both close)
  closed: { close: "closed" },
};

/** Thrown for a move the table does not list: a bug in the caller, never a server problem. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly server: string,
    readonly from: UpstreamState,
    readonly event: UpstreamEvent,
  ) {
    const legal = Object.keys(TRANSITIONS[from]).join(", ");
    super(
      `Upstream "${server}" cannot take event "${event}" in state "${from}" (legal there: ${legal}). This is a toolsift bug; please report it with the gateway log.`,
    );
    this.name = "IllegalTransitionError";
  }
}

/** The state after `event`, or an `IllegalTransitionError` when the table has no such move. */
export function nextState(
  server: string,
  from: UpstreamState,
  event: UpstreamEvent,
): UpstreamState {
  const to = TRANSITIONS[from][event];
  if (to === undefined) throw new IllegalTransitionError(server, from, event);
  return to;
}

/** One upstream's current state, changed only through the table. */
export interface UpstreamLife {
  readonly state: UpstreamState;
  /** Applies `event`; throws `IllegalTransitionError` for a move the table does not list. */
  advance(event: UpstreamEvent): UpstreamState;
  /** True when `event` is legal now (for moves that may race a close). */
  can(event: UpstreamEvent): boolean;
}

/** A new upstream life in `idle`; `onChange` hears every move (for logs and status). */
export function createUpstreamLife(
  server: string,
  onChange?: (from: UpstreamState, to: UpstreamState, event: UpstreamEvent) => void,
): UpstreamLife {
  let state: UpstreamState = "idle";
  return {
    get state() {
      return state;
    },
    advance(event) {
      const from = state;
      state = nextState(server, from, event);
      onChange?.(from, state, event);
      return state;
    },
    can: (event) => TRANSITIONS[state][event] !== undefined,
  };
}
