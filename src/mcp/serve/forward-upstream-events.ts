/**
 * What the upstreams say that every client session hears: a changed tool list (one re-list
 * announcement per tick), log messages, resource and prompt notifications. Used by both the
 * stdio and the HTTP gateway.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isSubscribed } from "../features/session-pass-through.js";
import type { GatewaySessionOptions } from "./gateway-session.js";

/** Tells every session's client to re-list when the catalog changes (batched per tick), and
 * passes the upstreams' log messages to every session (at the level each session set), with the
 * server as the logger. Returns the unsubscribe function. */
export function forwardUpstreamEvents(
  options: GatewaySessionOptions,
  sessions: () => Iterable<{ server: Server; sessionId?: string | undefined }>,
) {
  const stopLogs = options.sift.upstreams.onLogMessage((server, params) => {
    const logger = params.logger === undefined ? server : `${server}/${params.logger}`;
    // the SDK keeps each session's logging level under its transport session id
    for (const { server, sessionId } of sessions()) {
      server.sendLoggingMessage({ ...params, logger }, sessionId).catch(() => undefined);
    }
  });
  // resource and prompt changes: `updated` to the sessions subscribed to the URI, the rest to all
  const stopNotifications = options.sift.upstreams.onNotification((_server, notification) => {
    for (const { server } of sessions()) {
      if (notification.method === "notifications/resources/updated") {
        if (!isSubscribed(server, notification.params.uri)) continue;
        server.sendResourceUpdated(notification.params).catch(() => undefined);
      } else if (notification.method === "notifications/resources/list_changed") {
        server.sendResourceListChanged().catch(() => undefined);
      } else if (notification.method === "notifications/prompts/list_changed") {
        server.sendPromptListChanged().catch(() => undefined);
      }
    }
  });
  let pending = false;
  const stopChanges = options.sift.catalog.onChange(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      for (const { server } of sessions()) server.sendToolListChanged().catch(() => undefined);
    });
  });
  return () => {
    stopLogs();
    stopNotifications();
    stopChanges();
  };
}
