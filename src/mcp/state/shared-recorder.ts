/**
 * `shareRecorder`: the session recorder's events written to the `SessionStore` as well, so a
 * session's log holds what it did on every replica (`store.events(session)`), capped there like
 * every session-scoped entry.
 */
import { type SessionRecorder, toRecordedEvent } from "../serve/session-recorder.js";
import type { SessionStore } from "./session-store.js";
import { createWriteChains } from "./write-chains.js";

/** Wraps `recorder` so each recorded event also goes to `store`, in order per session. A store
 * that fails drops the event there, never the call. */
export function shareRecorder(recorder: SessionRecorder, store: SessionStore): SessionRecorder {
  const writes = createWriteChains();
  return {
    open: (session, client) => recorder.open(session, client),
    close: (session) => recorder.close(session),
    record(session, report) {
      recorder.record(session, report);
      const event = toRecordedEvent(report, recorder.limits);
      writes.add(session, () => store.recordEvent(session, event).catch(() => undefined));
    },
    sessions: () => recorder.sessions(),
    get version() {
      return recorder.version;
    },
    get droppedSessions() {
      return recorder.droppedSessions;
    },
    limits: recorder.limits,
  };
}
