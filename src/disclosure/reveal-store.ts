import { ToolsiftError } from "../errors.js";

/** Per-session record of the deferred tools revealed so far, in reveal order. */
export interface RevealStore {
  /** Names revealed in the session, oldest first; refreshes the session's LRU and TTL clocks. */
  revealed(session: string): readonly string[];
  /** Changes whenever the session's reveals change; 0 for a session with none. Never reused. */
  version(session: string): number;
  /** Appends the names not yet revealed; returns those newly revealed. */
  reveal(session: string, names: readonly string[]): string[];
  clear(session: string): void;
  /** A JSON-safe copy of every live session, to survive a restart. */
  export(): RevealSnapshot;
  /** Loads a snapshot (merging over existing sessions); throws `invalid_option` on a bad shape. */
  import(snapshot: unknown): void;
}

/** The exported state of a reveal store. */
export interface RevealSnapshot {
  format: "toolsift.reveals/1";
  sessions: { session: string; tools: string[]; touchedAt: number }[];
}

/** Bounds of the in-memory store. */
export interface MemoryRevealStoreOptions {
  /** Sessions kept; the least recently used is evicted first (default 1,000). */
  maxSessions?: number;
  /** Tools kept per session; the earliest reveals are dropped first (default 100). */
  maxToolsPerSession?: number;
  /** Milliseconds a session lives after its last use (default 24 hours). */
  ttlMs?: number;
  /** Clock, for tests (default `Date.now`). */
  now?: () => number;
}

interface Entry {
  tools: string[];
  version: number;
  touchedAt: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ToolsiftError("invalid_option", `${name} must be a positive number, got ${value}.`);
  }
  return value;
}

/** Appends the names `entry` does not hold yet, keeping its newest `maxTools`; a change takes a
 * new version from `nextVersion`. Returns the names newly revealed. */
function appendReveals(
  entry: Entry,
  names: readonly string[],
  maxTools: number,
  nextVersion: () => number,
): string[] {
  // a Set keeps this linear: a snapshot or a model may hand over tens of thousands of names
  const seen = new Set(entry.tools);
  const added: string[] = [];
  for (const name of names) {
    if (typeof name !== "string" || seen.has(name)) continue;
    seen.add(name);
    added.push(name);
  }
  if (added.length === 0) return added;
  const before = entry.tools.length;
  const all = entry.tools.concat(added);
  entry.tools = all.length > maxTools ? all.slice(all.length - maxTools) : all;
  entry.version = nextVersion();
  // names pushed out by the cap in this same call are not reported as revealed
  return added.slice(Math.max(0, all.length - entry.tools.length - before));
}

/** Creates an in-memory reveal store bounded in sessions (LRU), tools per session and age (TTL). */
export function createMemoryRevealStore(options: MemoryRevealStoreOptions = {}): RevealStore {
  const maxSessions = positive(options.maxSessions, 1_000, "maxSessions");
  const maxTools = positive(options.maxToolsPerSession, 100, "maxToolsPerSession");
  const ttlMs = positive(options.ttlMs, 24 * 60 * 60 * 1000, "ttlMs");
  const now = options.now ?? Date.now;
  // Map order is LRU order: a touched session is re-inserted at the end
  const sessions = new Map<string, Entry>();
  let counter = 0;

  const live = (session: string): Entry | undefined => {
    const entry = sessions.get(session);
    if (!entry) return undefined;
    sessions.delete(session);
    if (now() - entry.touchedAt > ttlMs) return undefined;
    entry.touchedAt = now();
    sessions.set(session, entry);
    return entry;
  };
  const evict = () => {
    for (const key of sessions.keys()) {
      if (sessions.size <= maxSessions) break;
      sessions.delete(key);
    }
  };
  const append = (entry: Entry, names: readonly string[]): string[] =>
    appendReveals(entry, names, maxTools, () => ++counter);

  return {
    revealed: (session) => live(session)?.tools ?? [],
    version: (session) => live(session)?.version ?? 0,
    reveal(session, names) {
      let entry = live(session);
      if (!entry) {
        entry = { tools: [], version: 0, touchedAt: now() };
        sessions.set(session, entry);
      }
      const added = append(entry, names);
      if (entry.tools.length === 0) sessions.delete(session);
      evict();
      return added;
    },
    clear(session) {
      sessions.delete(session);
    },
    export() {
      const time = now();
      const list = [...sessions.entries()]
        .filter(([, entry]) => time - entry.touchedAt <= ttlMs)
        .map(([session, entry]) => ({
          session,
          tools: [...entry.tools],
          touchedAt: entry.touchedAt,
        }));
      return { format: "toolsift.reveals/1", sessions: list };
    },
    import(snapshot) {
      for (const item of readSnapshot(snapshot).sessions) {
        const time = now();
        // a clock from the future would keep the session alive for ever: it counts as now
        const touchedAt = Math.min(item.touchedAt, time);
        if (time - touchedAt > ttlMs) continue;
        sessions.delete(item.session);
        const entry: Entry = { tools: [], version: 0, touchedAt };
        append(entry, item.tools);
        if (entry.tools.length > 0) sessions.set(item.session, entry);
      }
      evict();
    },
  };
}

function readSnapshot(value: unknown): RevealSnapshot {
  const fail = (why: string): never => {
    throw new ToolsiftError(
      "invalid_option",
      `Cannot import reveal snapshot: ${why}. Pass the object returned by store.export().`,
    );
  };
  if (typeof value !== "object" || value === null) return fail("it is not an object");
  const snapshot = value as { format?: unknown; sessions?: unknown };
  if (snapshot.format !== "toolsift.reveals/1")
    return fail(`unknown format ${String(snapshot.format)}`);
  if (!Array.isArray(snapshot.sessions)) return fail("sessions is not an array");
  snapshot.sessions.forEach((item: unknown, index) => {
    const entry = item as { session?: unknown; tools?: unknown; touchedAt?: unknown };
    if (
      typeof entry?.session !== "string" ||
      !Array.isArray(entry.tools) ||
      !entry.tools.every((name) => typeof name === "string") ||
      typeof entry.touchedAt !== "number" ||
      !Number.isFinite(entry.touchedAt)
    ) {
      fail(
        `sessions[${index}] needs {session: string, tools: string[], touchedAt: finite number (ms since epoch)}`,
      );
    }
  });
  // sessions are applied oldest first so LRU order survives the round trip
  const sessions = [...(snapshot.sessions as RevealSnapshot["sessions"])];
  return { format: "toolsift.reveals/1", sessions };
}
