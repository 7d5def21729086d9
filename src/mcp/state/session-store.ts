/**
 * `SessionStore`: what a gateway session must keep beyond one process, so any replica can serve
 * any session — the session record, its reveals, its result-token tally, its spilled results,
 * the recorder's events — plus the pinned approvals, upstream OAuth logins, a lock per login and
 * a message bus between replicas. The
 * in-memory store (`createMemorySessionStore`) is the single-process default; the Redis one
 * (`createRedisSessionStore`) is shared by replicas.
 */

/** What a replica needs to serve a session another replica created. */
export interface SessionRecord {
  id: string;
  /** The protocol version agreed at `initialize`. */
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string; [key: string]: unknown };
  /** The gateway mode the session was opened in (`bridge`, `reveal`, `direct`). */
  mode: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastSeen: number;
  /** The subject of the token that opened it, when the gateway checks an identity provider. */
  user?: string;
  /** The policy profile the token's claims chose (`auth.profiles`), enforced on every replica. */
  profile?: { profile: string; rule: string };
}

/** A message between replicas: `target` is a session id, or `*` for every replica. */
export interface StateMessage {
  target: string;
  kind: string;
  /** Set by the store: the replica that published it. */
  from?: string;
  payload?: unknown;
}

/** Bounds of a store; every session-scoped entry expires `sessionTtlMs` after its last use. */
export interface SessionStoreLimits {
  /** Default 30 minutes (the HTTP gateway's idle expiry). */
  sessionTtlMs?: number;
  /** Reveals kept per session (oldest dropped first); default 100. */
  maxRevealsPerSession?: number;
  /** Recorder events kept per session (oldest dropped first); default 250. */
  maxEventsPerSession?: number;
  /** Spilled results kept per session (oldest dropped first); default 64. */
  maxSpillsPerSession?: number;
  /** Events kept per call stream for a client resuming it (`putCallEvent`); default 64. */
  maxEventsPerCallStream?: number;
  /** How long a call stream's kept events last after the last one was added; default 5 minutes
   * (a client resumes within seconds). */
  callStreamTtlMs?: number;
}

/** The state every replica shares. All methods may reject when the store is unreachable. */
export interface SessionStore {
  readonly kind: "memory" | "redis";
  /** This replica's id (a random UUID), the `from` of the messages it publishes. */
  readonly replica: string;
  putSession(record: SessionRecord): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Marks the session used now, extending every one of its entries' expiry. */
  touchSession(id: string): Promise<void>;
  /** Deletes the session and everything kept for it. */
  deleteSession(id: string): Promise<void>;
  revealed(id: string): Promise<string[]>;
  /** Appends names not yet revealed (the oldest past the cap are dropped). */
  addReveals(id: string, names: readonly string[]): Promise<void>;
  /** Result tokens the session has received so far. */
  resultTokens(id: string): Promise<number>;
  addResultTokens(id: string, tokens: number): Promise<number>;
  putSpill(id: string, spillId: string, text: string): Promise<void>;
  readSpill(id: string, spillId: string): Promise<string | undefined>;
  /** Approved tool pins (tool name → definition hash), shared by every session. */
  pins(): Promise<Record<string, string>>;
  setPin(tool: string, hash: string): Promise<void>;
  /** Appends a recorder event (JSON-safe); the oldest past the cap are dropped. */
  recordEvent(id: string, event: unknown): Promise<void>;
  events(id: string): Promise<unknown[]>;
  /** Appends an event (JSON-safe) of a call's response stream whose client connection broke, for
   * the client resuming that stream on any replica; capped, expires `callStreamTtlMs` after the
   * last append. */
  putCallEvent(id: string, stream: string, event: unknown): Promise<void>;
  callEvents(id: string, stream: string): Promise<unknown[]>;
  /** Marks `replica` alive for `ttlMs` (a replica's heartbeat). */
  markLive(replica: string, ttlMs: number): Promise<void>;
  /** Whether `replica`'s last mark is still within its `ttlMs`. */
  isLive(replica: string): Promise<boolean>;
  /** Removes `replica`'s mark (a replica stopping on purpose). */
  markGone(replica: string): Promise<void>;
  /** Every stored upstream OAuth login, by key (`SERVER URL`). The texts are secrets: never
   * logged. Logins do not expire with sessions. */
  logins(): Promise<Record<string, string>>;
  login(key: string): Promise<string | undefined>;
  /** Writes `next` (undefined deletes) only while the login is still `expected` (undefined:
   * absent); false when another writer changed it first (the caller reads and tries again). */
  swapLogin(key: string, expected: string | undefined, next: string | undefined): Promise<boolean>;
  /** Takes the lock `name` for at most `ttlMs` unless someone holds it; resolves to the function
   * that releases it, or undefined while another holder has it. A holder that dies frees it
   * when `ttlMs` passes. */
  tryLock(name: string, ttlMs: number): Promise<(() => Promise<void>) | undefined>;
  /** Sends a message to every replica (this one included). */
  publish(message: StateMessage): Promise<void>;
  /** Calls `handler` for each message published by any replica; returns the unsubscribe. */
  subscribe(handler: (message: StateMessage) => void): () => void;
  /** Resolves when the store answers; rejects with the reason otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The defaults of `SessionStoreLimits`. */
export const SESSION_STORE_DEFAULTS: Required<SessionStoreLimits> = {
  sessionTtlMs: 30 * 60 * 1000,
  maxRevealsPerSession: 100,
  maxEventsPerSession: 250,
  maxSpillsPerSession: 64,
  maxEventsPerCallStream: 64,
  callStreamTtlMs: 5 * 60 * 1000,
};
