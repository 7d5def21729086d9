/**
 * The streamable-HTTP side of a gateway without a listener of its own: one ToolSift session per
 * `Mcp-Session-Id`, idle sessions expired, and with replicas, sessions and calls shared through
 * the store. Each request is handled by handle-http-request.ts; `serveHttp` (serve-gateway.ts)
 * gives it a listener.
 */
import { setMaxListeners } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createBearerGuard } from "../auth/bearer-guard.js";
import { replicaCalls } from "../state/call-streams.js";
import { listenToReplicas, replicaHooks } from "../state/replica-gateway.js";
import { shareRecorder } from "../state/shared-recorder.js";
import { forwardUpstreamEvents } from "./forward-upstream-events.js";
import {
  answerFailure,
  type HttpGatewayContext,
  handleHttpRequest,
} from "./handle-http-request.js";
import { checkHttpOptions, type HttpGatewayOptions } from "./http-gateway-options.js";
import type { HttpSession } from "./http-session.js";
import { checkSessionProfiles } from "./session-profiles.js";

/** The streamable-HTTP side of a gateway without its own listener: mount `handle` on `/mcp` of
 * an existing `node:http` server (the inspector does). */
export interface HttpGateway {
  /** Answers one request for the MCP endpoint (Host/Origin/token checks included). */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Closes every client session; the upstreams stay (close `sift` for them). */
  close(): Promise<void>;
  /** Requests other than GET streams being answered now (graceful shutdown waits for them). */
  inFlight(): number;
}

/** Closes the sessions idle past `idleMs`, checking often enough to close them within about
 * half that again; the timer never keeps the process alive. Returns the stop function. */
function expireIdle(sessions: Map<string, HttpSession>, idleMs: number): () => void {
  const timer = setInterval(
    () => {
      const now = Date.now();
      for (const entry of [...sessions.values()]) {
        if (entry.active === 0 && now - entry.seen >= idleMs) {
          entry.server.close().catch(() => undefined);
        }
      }
    },
    Math.max(10, Math.min(Math.floor(idleMs / 2), 60_000)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/** Creates the `/mcp` handler of a gateway, one ToolSift session per MCP session. */
export function createHttpGateway(options: HttpGatewayOptions): HttpGateway {
  const { loopback, limits } = checkHttpOptions(options);
  const sessions = new Map<string, HttpSession>();
  const { state } = options;
  const stopping = new AbortController();
  const context: HttpGatewayContext = {
    options,
    loopback,
    limits,
    sessions,
    hooks: state
      ? replicaHooks(state, { mode: options.mode ?? "bridge", sift: options.sift })
      : undefined,
    recorder:
      state && options.recorder ? shareRecorder(options.recorder, state.store) : options.recorder,
    stopping,
    guard: options.auth ? createBearerGuard(options.auth) : undefined,
    calls: state ? replicaCalls(state.store, state.calls, sessions, stopping.signal) : undefined,
  };
  if (options.auth) checkSessionProfiles(options.sift, options.auth);
  // every call in flight listens for the stop
  setMaxListeners(0, context.stopping.signal);
  const stopAnnouncing = forwardUpstreamEvents(options, () =>
    [...sessions.entries()].map(([sessionId, entry]) => ({ server: entry.server, sessionId })),
  );
  const stopExpiring = expireIdle(sessions, limits.sessionIdleMs);
  const stopListening = state ? listenToReplicas(state, sessions) : () => undefined;
  return {
    handle: (request, response) =>
      handleHttpRequest(context, request, response).catch((error: unknown) =>
        answerFailure(request, response, error),
      ),
    inFlight: () => [...sessions.values()].reduce((sum, entry) => sum + entry.active, 0),
    close: async () => {
      stopAnnouncing();
      stopExpiring();
      stopListening();
      // calls still running are answered with an error now, while their streams are open
      context.stopping.abort();
      const answered = Date.now() + 2_000;
      while ([...sessions.values()].some((entry) => entry.active > 0) && Date.now() < answered) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(
        [...sessions.values()].map((entry) => entry.server.close().catch(() => undefined)),
      );
      await context.calls?.stop();
    },
  };
}
