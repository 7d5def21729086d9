/** `createMemorySessionStore`: the single-process `SessionStore`, today's behaviour. */
import { randomUUID } from "node:crypto";
import {
  SESSION_STORE_DEFAULTS,
  type SessionRecord,
  type SessionStore,
  type SessionStoreLimits,
  type StateMessage,
} from "./session-store.js";

interface SessionEntry {
  record?: SessionRecord;
  reveals: string[];
  tokens: number;
  spills: Map<string, string>;
  events: unknown[];
  touchedAt: number;
}

/** Keeps only the newest `max` items. */
function capped<T>(items: T[], max: number): T[] {
  return items.length > max ? items.slice(items.length - max) : items;
}

/** The live entries: one expires `sessionTtlMs` after its last use (checked when read). */
function memoryEntries(ttlMs: number, now: () => number) {
  const sessions = new Map<string, SessionEntry>();
  const live = (id: string): SessionEntry | undefined => {
    const entry = sessions.get(id);
    if (entry && now() - entry.touchedAt > ttlMs) {
      sessions.delete(id);
      return undefined;
    }
    return entry;
  };
  const entryOf = (id: string): SessionEntry => {
    let entry = live(id);
    if (!entry) {
      entry = { reveals: [], tokens: 0, spills: new Map(), events: [], touchedAt: now() };
      sessions.set(id, entry);
    }
    entry.touchedAt = now();
    return entry;
  };
  return { sessions, live, entryOf };
}

/** The message bus of one process: a message reaches every subscriber, marked from `replica`. */
function memoryBus(replica: string) {
  const handlers = new Set<(message: StateMessage) => void>();
  return {
    publish: async (message) => {
      for (const handler of handlers) handler({ ...message, from: replica });
    },
    subscribe: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    ping: async () => undefined,
    close: async () => {
      handlers.clear();
    },
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    "publish" | "subscribe" | "ping" | "close"
  >;
}

/** Replicas' heartbeats: the time each mark lapses. */
function memoryLiveness(now: () => number) {
  const until = new Map<string, number>();
  return {
    markLive: async (replica, ttlMs) => {
      until.set(replica, now() + ttlMs);
    },
    isLive: async (replica) => (until.get(replica) ?? 0) > now(),
    markGone: async (replica) => {
      until.delete(replica);
    },
  } satisfies Partial<SessionStore> as Pick<SessionStore, "markLive" | "isLive" | "markGone">;
}

/** Kept events of call streams, by session and stream; a stream's events go
 * `callStreamTtlMs` after its last append (checked when read or written). */
function memoryCallStreams(bounds: Required<SessionStoreLimits>, now: () => number) {
  const streams = new Map<string, { events: unknown[]; expires: number }>();
  const sweep = () => {
    for (const [key, stream] of streams) if (stream.expires <= now()) streams.delete(key);
  };
  return {
    putCallEvent: async (id, stream, event) => {
      sweep();
      const key = `${id} ${stream}`;
      const kept = streams.get(key)?.events ?? [];
      const events = capped([...kept, event], bounds.maxEventsPerCallStream);
      streams.set(key, { events, expires: now() + bounds.callStreamTtlMs });
    },
    callEvents: async (id, stream) => {
      sweep();
      return [...(streams.get(`${id} ${stream}`)?.events ?? [])];
    },
  } satisfies Partial<SessionStore> as Pick<SessionStore, "putCallEvent" | "callEvents">;
}

/** Logins and locks of one process (a lock past its expiry is free again). */
function memoryLogins(now: () => number) {
  const logins = new Map<string, string>();
  const locks = new Map<string, { holder: symbol; until: number }>();
  return {
    logins: async () => Object.fromEntries(logins),
    login: async (key) => logins.get(key),
    swapLogin: async (key, expected, next) => {
      if (logins.get(key) !== expected) return false;
      if (next === undefined) logins.delete(key);
      else logins.set(key, next);
      return true;
    },
    tryLock: async (name, ttlMs) => {
      const held = locks.get(name);
      if (held && held.until > now()) return undefined;
      const holder = Symbol(name);
      locks.set(name, { holder, until: now() + ttlMs });
      return async () => {
        if (locks.get(name)?.holder === holder) locks.delete(name);
      };
    },
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    "logins" | "login" | "swapLogin" | "tryLock"
  >;
}

/** Creates an in-memory store: entries expire `sessionTtlMs` after their session's last use
 * (checked when read) and the same caps as the Redis store apply. */
export function createMemorySessionStore(
  limits: SessionStoreLimits & { now?: () => number } = {},
): SessionStore {
  const bounds = { ...SESSION_STORE_DEFAULTS, ...limits };
  const now = limits.now ?? Date.now;
  const { sessions, live, entryOf } = memoryEntries(bounds.sessionTtlMs, now);
  const pins = new Map<string, string>();
  const replica = randomUUID();
  const liveness = memoryLiveness(now);
  const calls = memoryCallStreams(bounds, now);

  return {
    kind: "memory",
    replica,
    putSession: async (record) => {
      entryOf(record.id).record = { ...record };
    },
    getSession: async (id) => {
      const record = live(id)?.record;
      return record ? { ...record } : undefined;
    },
    touchSession: async (id) => {
      const entry = live(id);
      if (!entry) return;
      entry.touchedAt = now();
      if (entry.record) entry.record.lastSeen = now();
    },
    deleteSession: async (id) => {
      sessions.delete(id);
    },
    revealed: async (id) => [...(live(id)?.reveals ?? [])],
    addReveals: async (id, names) => {
      const entry = entryOf(id);
      const added = names.filter((name) => !entry.reveals.includes(name));
      entry.reveals = capped([...entry.reveals, ...new Set(added)], bounds.maxRevealsPerSession);
    },
    resultTokens: async (id) => live(id)?.tokens ?? 0,
    addResultTokens: async (id, tokens) => {
      const entry = entryOf(id);
      entry.tokens += tokens;
      return entry.tokens;
    },
    putSpill: async (id, spillId, text) => {
      const { spills } = entryOf(id);
      spills.set(spillId, text);
      for (const key of spills.keys()) {
        if (spills.size <= bounds.maxSpillsPerSession) break;
        spills.delete(key);
      }
    },
    readSpill: async (id, spillId) => live(id)?.spills.get(spillId),
    pins: async () => Object.fromEntries(pins),
    setPin: async (tool, hash) => {
      pins.set(tool, hash);
    },
    recordEvent: async (id, event) => {
      const entry = entryOf(id);
      entry.events = capped([...entry.events, event], bounds.maxEventsPerSession);
    },
    events: async (id) => [...(live(id)?.events ?? [])],
    ...calls,
    ...liveness,
    ...memoryLogins(now),
    ...memoryBus(replica),
  };
}
