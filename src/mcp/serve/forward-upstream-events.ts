/**
 * What the upstreams say that every client session hears: changed tool, resource and prompt
 * lists, updated resources (to their subscribers) and log messages. Used by both the stdio and
 * the HTTP gateway.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ResourceUpdatedNotification } from "@modelcontextprotocol/sdk/types.js";
import { isSubscribed } from "../features/session-pass-through.js";
import type { GatewaySessionOptions } from "./gateway-session.js";

/** How often at most each kind of change is announced to the sessions while a burst lasts (ms). */
export const ANNOUNCE_EVERY_MS = 100;

/** Runs `flush` soon after `mark()`, then at most once per `everyMs` while marks keep coming; a
 * mark is never left without a flush after it. The changes carry nothing a later announcement
 * does not (a list changed; a URI changed), so a burst loses nothing by being told once. */
function createAnnouncer(flush: () => void, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let pending = false;
  let last = 0;
  const run = () => {
    timer = undefined;
    if (!pending) return;
    pending = false;
    last = Date.now();
    flush();
  };
  return {
    mark() {
      pending = true;
      timer ??= setTimeout(run, Math.max(0, last + everyMs - Date.now()));
    },
    stop: () => clearTimeout(timer),
  };
}

type Sessions = () => Iterable<{ server: Server; sessionId?: string | undefined }>;

/** True when some session subscribes to `uri` (asked per notification of a storm: no copy). */
function anySubscribed(sessions: Sessions, uri: string): boolean {
  for (const { server } of sessions()) if (isSubscribed(server, uri)) return true;
  return false;
}

/** The resource and prompt notifications of the upstreams, announced within `ANNOUNCE_EVERY_MS`:
 * an upstream's burst of 5,000 reached every session 5,000 times. */
function forwardNotifications(options: GatewaySessionOptions, sessions: Sessions) {
  const each = (send: (server: Server) => Promise<void>) => () => {
    for (const { server } of sessions()) send(server).catch(() => undefined);
  };
  const resources = createAnnouncer(
    each((server) => server.sendResourceListChanged()),
    ANNOUNCE_EVERY_MS,
  );
  const prompts = createAnnouncer(
    each((server) => server.sendPromptListChanged()),
    ANNOUNCE_EVERY_MS,
  );
  // only URIs some session subscribes to are kept, so the map is bounded by the subscription caps
  const updated = new Map<string, ResourceUpdatedNotification["params"]>();
  const updates = createAnnouncer(() => {
    const due = [...updated.values()];
    updated.clear();
    for (const { server } of sessions()) {
      for (const params of due) {
        if (isSubscribed(server, params.uri)) server.sendResourceUpdated(params).catch(() => {});
      }
    }
  }, ANNOUNCE_EVERY_MS);
  const stop = options.sift.upstreams.onNotification((_server, notification) => {
    if (notification.method === "notifications/resources/updated") {
      const { uri } = notification.params;
      if (!anySubscribed(sessions, uri)) return;
      updated.set(uri, notification.params);
      updates.mark();
    } else if (notification.method === "notifications/resources/list_changed") {
      resources.mark();
    } else if (notification.method === "notifications/prompts/list_changed") {
      prompts.mark();
    }
  });
  return () => {
    stop();
    for (const announcer of [resources, prompts, updates]) announcer.stop();
  };
}

/** Tells every session's client to re-list when the catalog or an upstream's resources or
 * prompts change (each at most once per `ANNOUNCE_EVERY_MS`), passes updated resources to their
 * subscribers and the upstreams' log messages to every session (at the level each session set),
 * with the server as the logger. Returns the unsubscribe function. */
export function forwardUpstreamEvents(options: GatewaySessionOptions, sessions: Sessions) {
  const stopLogs = options.sift.upstreams.onLogMessage((server, params) => {
    const logger = params.logger === undefined ? server : `${server}/${params.logger}`;
    // the SDK keeps each session's logging level under its transport session id
    for (const { server, sessionId } of sessions()) {
      server.sendLoggingMessage({ ...params, logger }, sessionId).catch(() => undefined);
    }
  });
  const stopNotifications = forwardNotifications(options, sessions);
  const tools = createAnnouncer(() => {
    for (const { server } of sessions()) server.sendToolListChanged().catch(() => undefined);
  }, ANNOUNCE_EVERY_MS);
  const stopChanges = options.sift.catalog.onChange(() => tools.mark());
  return () => {
    stopLogs();
    stopNotifications();
    stopChanges();
    tools.stop();
  };
}
