/**
 * When a down upstream may be restarted. Restarts are lazy (the next call asks) and bounded: after
 * a failed attempt the next waits 0.5 s, 1 s, 2 s, … (at most 10 s); after `maxRestarts` attempts
 * without a successful call, none for `quietMs` after the last failure, then the count starts
 * again, so no client's calls can leave a server down for good.
 */

/** The restart bookkeeping of one upstream. */
export interface RestartGate {
  /** Restarts since the last successful call. */
  readonly restarts: number;
  /** Why no restart may be tried now (completing "Server "x" is down…"), or undefined. */
  refusal(lastError: string | undefined): string | undefined;
  /** Counts an attempt about to be made; returns its number. */
  attempt(): number;
  /** The connection closed or an attempt failed: the pauses count from now. */
  failed(afterAttempt: boolean): void;
  /** A call went through: the count starts again. */
  succeeded(): void;
}

const MAX_PAUSE_MS = 10_000;

export function createRestartGate(maxRestarts: number, quietMs: number): RestartGate {
  let restarts = 0;
  let nextAttemptAt = 0;
  let lastFailureAt = 0;
  return {
    get restarts() {
      return restarts;
    },
    refusal(lastError) {
      if (restarts >= maxRestarts) {
        const quiet = lastFailureAt + quietMs - Date.now();
        if (quiet > 0) {
          return `is down and ${restarts} restarts failed (last error: ${lastError}); the next attempt is in ${Math.ceil(quiet / 1000)} s. Fix the server (see the gateway log), or try again then.`;
        }
        restarts = 0;
        nextAttemptAt = 0;
      }
      const wait = nextAttemptAt - Date.now();
      if (wait > 0) {
        return `is down (${lastError}); the next restart attempt is in ${Math.ceil(wait / 1000)} s. Try again then.`;
      }
      return undefined;
    },
    attempt: () => {
      restarts += 1;
      return restarts;
    },
    failed(afterAttempt) {
      lastFailureAt = Date.now();
      if (afterAttempt)
        nextAttemptAt = lastFailureAt + Math.min(500 * 2 ** (restarts - 1), MAX_PAUSE_MS);
    },
    succeeded: () => {
      restarts = 0;
    },
  };
}
