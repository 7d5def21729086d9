/**
 * `createRedisSessionStore`: the `SessionStore` replicas share, on Redis through node-redis (an
 * optional peer, loaded only here). Every key starts with the prefix; every session-scoped key
 * expires `sessionTtlMs` after the session's last use, and lists are capped, so nothing grows
 * without bound. Commands fail at once while Redis is unreachable (no offline queue), so a
 * request gets a clear error instead of waiting.
 */
import { randomUUID } from "node:crypto";
import { ToolsiftError } from "../../errors.js";
import {
  SESSION_STORE_DEFAULTS,
  type SessionRecord,
  type SessionStore,
  type SessionStoreLimits,
  type StateMessage,
} from "./session-store.js";

/** Options of `createRedisSessionStore`. */
export interface RedisSessionStoreOptions extends SessionStoreLimits {
  /** `redis://HOST:PORT[/DB]` (or `rediss://` for TLS). */
  url: string;
  /** Put before every key and the bus channel; default `toolsift:`. */
  prefix?: string;
}

type RedisModule = typeof import("redis");
type RedisClient = ReturnType<RedisModule["createClient"]>;

async function loadRedis(url: string): Promise<RedisModule> {
  try {
    return await import("redis");
  } catch (cause) {
    throw new ToolsiftError(
      "invalid_option",
      `--state ${url} needs the "redis" package, which is not installed; run npm install redis@^4.7.1 (or drop --state to keep sessions in memory).`,
      { cause },
    );
  }
}

/** The session store did not answer; the HTTP gateway answers 503 with the message. */
export class StoreUnavailableError extends ToolsiftError {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "internal",
      `The session store ${redactUrl(url)} is unreachable (${reason}); start Redis or check --state.`,
      { cause },
    );
    this.name = "ToolsiftStoreUnavailableError";
  }
}

function storeUnreachable(url: string, cause: unknown): StoreUnavailableError {
  return new StoreUnavailableError(url, cause);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Every key of one prefix; `all(id)` lists a session's keys (spill texts aside). */
function redisKeys(prefix: string) {
  const key = {
    session: (id: string) => `${prefix}session:${id}`,
    reveals: (id: string) => `${prefix}reveals:${id}`,
    revealCount: (id: string) => `${prefix}reveal-count:${id}`,
    tokens: (id: string) => `${prefix}tokens:${id}`,
    spills: (id: string) => `${prefix}spills:${id}`,
    spill: (id: string, spillId: string) => `${prefix}spill:${id}:${spillId}`,
    events: (id: string) => `${prefix}events:${id}`,
    call: (id: string, stream: string) => `${prefix}call:${id}:${stream}`,
    live: (replica: string) => `${prefix}live:${replica}`,
    pins: `${prefix}pins`,
    logins: `${prefix}logins`,
    lock: (name: string) => `${prefix}lock:${name}`,
  };
  return {
    ...key,
    all: (id: string) => [
      key.session(id),
      key.reveals(id),
      key.revealCount(id),
      key.tokens(id),
      key.spills(id),
      key.events(id),
    ],
  };
}

/** What the store's methods share. */
interface RedisContext {
  client: RedisClient;
  key: ReturnType<typeof redisKeys>;
  bounds: Required<SessionStoreLimits>;
  /** Runs a command; a failure becomes `StoreUnavailableError`. */
  run: <T>(command: () => Promise<T>) => Promise<T>;
}

/** Connects the command client and the subscriber; the first connection fails at once (a wrong
 * URL is reported at startup), a lost one is retried for ever, backing off to every 2 s, so the
 * gateway resumes when Redis returns. */
async function connectRedis(redis: RedisModule, url: string) {
  let connected = false;
  const clientOptions = {
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number, cause: Error) =>
        connected ? Math.min(100 * 2 ** retries, 2_000) : cause,
    },
  };
  const client: RedisClient = redis.createClient(clientOptions);
  const subscriber: RedisClient = client.duplicate();
  // without listeners a lost connection would be an unhandled 'error' event (a crash)
  let lastError: unknown;
  client.on("error", (error: unknown) => {
    lastError = error;
  });
  subscriber.on("error", () => undefined);
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
    connected = true;
  } catch (cause) {
    await Promise.all(
      [client.disconnect(), subscriber.disconnect()].map((p) => p.catch(() => undefined)),
    );
    throw storeUnreachable(url, cause);
  }
  return { client, subscriber, lastError: () => lastError };
}

/** Session records, reveals and result tokens. */
function sessionMethods({ client, key, bounds, run }: RedisContext) {
  const ttl = bounds.sessionTtlMs;
  return {
    putSession: (record) =>
      run(async () => {
        await client.set(key.session(record.id), JSON.stringify(record), { PX: ttl });
      }),
    getSession: (id) =>
      run(async () => {
        const text = await client.get(key.session(id));
        return text === null ? undefined : (JSON.parse(text) as SessionRecord);
      }),
    touchSession: (id) =>
      run(async () => {
        const multi = client.multi();
        for (const name of key.all(id)) multi.pExpire(name, ttl);
        await multi.exec();
      }),
    deleteSession: (id) =>
      run(async () => {
        const spills = await client.lRange(key.spills(id), 0, -1);
        await client.del([...key.all(id), ...spills.map((spillId) => key.spill(id, spillId))]);
      }),
    revealed: (id) => run(() => client.zRange(key.reveals(id), 0, -1)),
    addReveals: (id, names) =>
      run(async () => {
        if (names.length === 0) return;
        // the score is the reveal order, taken from one counter per session: reveals made in the
        // same millisecond (or on two replicas) keep their order, which a clock does not give.
        // NX keeps a name's first reveal.
        const last = await client.incrBy(key.revealCount(id), names.length);
        const first = last - names.length + 1;
        await client
          .multi()
          .zAdd(
            key.reveals(id),
            names.map((value, index) => ({ score: first + index, value })),
            { NX: true },
          )
          .zRemRangeByRank(key.reveals(id), 0, -(bounds.maxRevealsPerSession + 1))
          .pExpire(key.reveals(id), ttl)
          .pExpire(key.revealCount(id), ttl)
          .exec();
      }),
    resultTokens: (id) => run(async () => Number((await client.get(key.tokens(id))) ?? 0)),
    addResultTokens: (id, tokens) =>
      run(async () => {
        const [total] = await client
          .multi()
          .incrBy(key.tokens(id), Math.round(tokens))
          .pExpire(key.tokens(id), ttl)
          .exec();
        return Number(total);
      }),
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    | "putSession"
    | "getSession"
    | "touchSession"
    | "deleteSession"
    | "revealed"
    | "addReveals"
    | "resultTokens"
    | "addResultTokens"
  >;
}

/** Spills, pins and recorder events. */
function dataMethods({ client, key, bounds, run }: RedisContext) {
  const ttl = bounds.sessionTtlMs;
  return {
    putSpill: (id, spillId, text) =>
      run(async () => {
        await client
          .multi()
          .set(key.spill(id, spillId), text, { PX: ttl })
          .rPush(key.spills(id), spillId)
          .pExpire(key.spills(id), ttl)
          .exec();
        // the oldest spills past the cap go, list entry and text alike
        const excess = (await client.lLen(key.spills(id))) - bounds.maxSpillsPerSession;
        for (let index = 0; index < excess; index += 1) {
          const old = await client.lPop(key.spills(id));
          if (old !== null) await client.del(key.spill(id, old));
        }
      }),
    readSpill: (id, spillId) =>
      run(async () => (await client.get(key.spill(id, spillId))) ?? undefined),
    pins: () => run(() => client.hGetAll(key.pins)),
    setPin: (tool, hash) =>
      run(async () => {
        await client.hSet(key.pins, tool, hash);
      }),
    recordEvent: (id, event) =>
      run(async () => {
        await client
          .multi()
          .rPush(key.events(id), JSON.stringify(event))
          .lTrim(key.events(id), -bounds.maxEventsPerSession, -1)
          .pExpire(key.events(id), ttl)
          .exec();
      }),
    events: (id) =>
      run(async () =>
        (await client.lRange(key.events(id), 0, -1)).map((text) => JSON.parse(text) as unknown),
      ),
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    "putSpill" | "readSpill" | "pins" | "setPin" | "recordEvent" | "events"
  >;
}

/** Kept events of call streams and the replicas' heartbeats. */
function replicaMethods({ client, key, bounds, run }: RedisContext) {
  return {
    putCallEvent: (id, stream, event) =>
      run(async () => {
        await client
          .multi()
          .rPush(key.call(id, stream), JSON.stringify(event))
          .lTrim(key.call(id, stream), -bounds.maxEventsPerCallStream, -1)
          .pExpire(key.call(id, stream), bounds.callStreamTtlMs)
          .exec();
      }),
    callEvents: (id, stream) =>
      run(async () =>
        (await client.lRange(key.call(id, stream), 0, -1)).map(
          (text) => JSON.parse(text) as unknown,
        ),
      ),
    markLive: (replica, ttlMs) =>
      run(async () => {
        await client.set(key.live(replica), "1", { PX: Math.max(1, Math.round(ttlMs)) });
      }),
    isLive: (replica) => run(async () => (await client.exists(key.live(replica))) === 1),
    markGone: (replica) =>
      run(async () => {
        await client.del(key.live(replica));
      }),
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    "putCallEvent" | "callEvents" | "markLive" | "isLive" | "markGone"
  >;
}

// compare-and-set of one login: ARGV = field, expected-absent flag, expected, delete flag, next
const SWAP_LOGIN = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '1' then
  if current then return 0 end
elseif current ~= ARGV[3] then
  return 0
end
if ARGV[4] == '1' then redis.call('HDEL', KEYS[1], ARGV[1])
else redis.call('HSET', KEYS[1], ARGV[1], ARGV[5]) end
return 1`;

// a lock is released only by its holder: after its expiry another replica may hold it
const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Upstream OAuth logins (one hash, no expiry) and the locks that keep refreshes apart. */
function loginMethods({ client, key, run }: RedisContext) {
  return {
    logins: () => run(() => client.hGetAll(key.logins)),
    login: (field) => run(async () => (await client.hGet(key.logins, field)) ?? undefined),
    swapLogin: (field, expected, next) =>
      run(async () => {
        const swapped = await client.eval(SWAP_LOGIN, {
          keys: [key.logins],
          arguments: [
            field,
            expected === undefined ? "1" : "0",
            expected ?? "",
            next === undefined ? "1" : "0",
            next ?? "",
          ],
        });
        return Number(swapped) === 1;
      }),
    tryLock: (name, ttlMs) =>
      run(async () => {
        const holder = randomUUID();
        const taken = await client.set(key.lock(name), holder, { NX: true, PX: ttlMs });
        if (taken === null) return undefined;
        return () =>
          run(async () => {
            await client.eval(RELEASE_LOCK, { keys: [key.lock(name)], arguments: [holder] });
          });
      }),
  } satisfies Partial<SessionStore> as Pick<
    SessionStore,
    "logins" | "login" | "swapLogin" | "tryLock"
  >;
}

/** Connects to Redis; rejects with a clear error when the URL is bad or the package missing. */
export async function createRedisSessionStore(
  options: RedisSessionStoreOptions,
): Promise<SessionStore> {
  if (!/^rediss?:\/\//.test(options.url)) {
    throw new ToolsiftError(
      "invalid_option",
      `--state "${redactUrl(options.url)}" is not a Redis URL; use redis://HOST:PORT[/DB].`,
    );
  }
  const redis = await loadRedis(options.url);
  const bounds = { ...SESSION_STORE_DEFAULTS, ...options };
  const prefix = options.prefix ?? "toolsift:";
  const { client, subscriber, lastError } = await connectRedis(redis, options.url);
  const replica = randomUUID();
  const channel = `${prefix}bus`;
  const handlers = new Set<(message: StateMessage) => void>();
  await subscriber.subscribe(channel, (text: string) => {
    let message: StateMessage;
    try {
      message = JSON.parse(text) as StateMessage;
    } catch {
      return;
    }
    for (const handler of handlers) handler(message);
  });
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (cause) {
      throw storeUnreachable(options.url, cause);
    }
  };
  const context: RedisContext = { client, key: redisKeys(prefix), bounds, run };

  return {
    kind: "redis",
    replica,
    ...sessionMethods(context),
    ...dataMethods(context),
    ...replicaMethods(context),
    ...loginMethods(context),
    publish: (message) =>
      run(async () => {
        await client.publish(channel, JSON.stringify({ ...message, from: replica }));
      }),
    subscribe: (handler) => {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    ping: async () => {
      if (!client.isReady) throw storeUnreachable(options.url, lastError() ?? "not connected");
      await run(() => client.ping());
    },
    close: async () => {
      handlers.clear();
      await Promise.all(
        [subscriber, client].map((each) => (each.isOpen ? each.quit() : Promise.resolve())),
      ).catch(() => undefined);
    },
  };
}
