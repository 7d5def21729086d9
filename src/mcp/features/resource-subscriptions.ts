/**
 * The resource subscriptions of the gateway's client sessions (`resources/subscribe`), bounded per
 * session and counted per URI: one upstream connection serves every session, so the upstream is
 * subscribed when the first session asks and unsubscribed when the last one lets go (unsubscribes,
 * or its session ends), never while another session still wants `updated` for that URI.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ToolsiftError } from "../../errors.js";

/** Most subscriptions one client session may hold at once (option `maxSubscriptions`). */
export const MAX_SUBSCRIPTIONS_DEFAULT = 1_000;
/** Longest URI a session may subscribe to, in characters (a path is at most 4,096 on Linux). */
export const MAX_SUBSCRIBED_URI_CHARS = 4_096;

/** Sends `resources/subscribe` (`on`) or `resources/unsubscribe` to the server owning `uri`;
 * `options` are those of the client request that caused it (its signal and relay). */
export type SubscribeUpstream<O> = (uri: string, on: boolean, options?: O) => Promise<void>;

/** Every session's subscriptions; a session is any object (the gateway uses its `Server`). */
export interface ResourceSubscriptions<O = unknown> {
  /** Subscribes the session to `uri`; throws when it holds `maxPerSession` already, or when the
   * upstream refuses (then the session holds nothing new). */
  add(session: object, uri: string, options?: O): Promise<void>;
  /** Unsubscribes the session; a URI it never subscribed to is a no-op. */
  remove(session: object, uri: string, options?: O): Promise<void>;
  /** Frees every subscription of a session that ended; upstream failures are ignored. */
  release(session: object): Promise<void>;
  has(session: object, uri: string): boolean;
  /** The session's subscriptions, or (without one) the URIs subscribed upstream. */
  count(session?: object): number;
}

interface Upstream {
  /** Sessions holding the URI, including ones whose subscribe is still under way. */
  holders: number;
  /** The upstream subscribe; every session subscribing meanwhile waits for the same answer. */
  ready: Promise<void>;
}

/** Creates the subscription registry over `upstream`; `maxPerSession` must be a positive integer. */
export function createResourceSubscriptions<O>(
  upstream: SubscribeUpstream<O>,
  limits: { maxPerSession: number },
): ResourceSubscriptions<O> {
  if (!Number.isInteger(limits.maxPerSession) || limits.maxPerSession < 1) {
    throw new ToolsiftError(
      "invalid_option",
      `maxSubscriptions must be a positive whole number, got ${String(limits.maxPerSession)}; leave it out for the default (${MAX_SUBSCRIPTIONS_DEFAULT}).`,
    );
  }
  // a WeakMap: a session dropped without release (a test, a crash) takes its set with it
  const sessions = new WeakMap<object, Set<string>>();
  const uris = new Map<string, Upstream>();
  const setOf = (session: object) => {
    let set = sessions.get(session);
    if (!set) {
      set = new Set();
      sessions.set(session, set);
    }
    return set;
  };

  /** One holder fewer; the upstream is told once nobody holds the URI. */
  const letGo = (uri: string, options?: O): Promise<void> => {
    const entry = uris.get(uri);
    if (!entry) return Promise.resolve();
    entry.holders -= 1;
    if (entry.holders > 0) return Promise.resolve();
    uris.delete(uri);
    return upstream(uri, false, options);
  };

  return {
    async add(session, uri, options) {
      const set = setOf(session);
      if (set.has(uri)) return;
      if (uri.length > MAX_SUBSCRIBED_URI_CHARS) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `resources/subscribe: the URI is over ${MAX_SUBSCRIBED_URI_CHARS} characters (${uri.length}); subscribe to a shorter URI.`,
        );
      }
      if (set.size >= limits.maxPerSession) {
        throw new McpError(
          ErrorCode.InvalidRequest,
          `resources/subscribe "${uri.slice(0, 200)}": this session already holds ${limits.maxPerSession} resource subscriptions, the most the gateway keeps per session (maxSubscriptions). Send resources/unsubscribe for URIs you no longer watch, or raise maxSubscriptions (--max-subscriptions).`,
        );
      }
      let entry = uris.get(uri);
      if (!entry) {
        entry = { holders: 0, ready: upstream(uri, true, options) };
        uris.set(uri, entry);
      }
      entry.holders += 1;
      set.add(uri);
      try {
        await entry.ready;
      } catch (error) {
        // an unsubscribe that came meanwhile has already let go of this holder
        if (set.delete(uri)) {
          entry.holders -= 1;
          if (entry.holders === 0 && uris.get(uri) === entry) uris.delete(uri);
        }
        throw error;
      }
    },
    async remove(session, uri, options) {
      const set = sessions.get(session);
      if (!set?.delete(uri)) return;
      await letGo(uri, options);
    },
    async release(session) {
      const set = sessions.get(session);
      if (!set) return;
      sessions.delete(session);
      await Promise.all([...set].map((uri) => letGo(uri).catch(() => undefined)));
    },
    has: (session, uri) => sessions.get(session)?.has(uri) ?? false,
    count: (session) => (session === undefined ? uris.size : (sessions.get(session)?.size ?? 0)),
  };
}
