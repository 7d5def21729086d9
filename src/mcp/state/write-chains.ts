/**
 * `createWriteChains`: one chain of store writes per session, so a session's writes land in
 * order while a call goes on, and the call's answer can wait for them (`flush`).
 */

/** Per-session chains of asynchronous writes. */
export interface WriteChains {
  /** Queues `write` after the session's earlier writes (a failed one does not stop the next). */
  add(session: string, write: () => Promise<unknown>): void;
  /** Resolves when the session's writes so far are done; rejects with the first failure since
   * the last flush. */
  flush(session: string): Promise<void>;
}

/** Creates empty chains; the map holds only sessions with a write in progress. */
export function createWriteChains(): WriteChains {
  const writes = new Map<string, Promise<void>>();
  return {
    add(session, write) {
      const previous = writes.get(session) ?? Promise.resolve();
      const next = previous
        .catch(() => undefined)
        .then(async () => {
          await write();
        });
      writes.set(session, next);
      // the entry goes once its write settles
      next.then(
        () => writes.get(session) === next && writes.delete(session),
        () => undefined,
      );
    },
    flush: async (session) => {
      const pending = writes.get(session);
      if (!pending) return;
      try {
        await pending;
      } finally {
        // a failed write is reported once; the next write starts a fresh chain
        if (writes.get(session) === pending) writes.delete(session);
      }
    },
  };
}
