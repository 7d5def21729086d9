/**
 * An upstream's progress reports for one call, thinned before they reach the client once they
 * come faster than a client can use: the first `PROGRESS_BURST` pass as they come, then at most
 * `PROGRESS_PER_SECOND`, the latest winning, and the last one pending is sent before the call's
 * result, so the client always sees the final figure. A server that reports in a tight loop
 * (200k reports took the gateway to 368 MB) costs one pending report per call.
 */
import type { UpstreamProgress } from "../relay/call-scope.js";
import { createTokenBucket } from "./token-bucket.js";

export const PROGRESS_BURST = 50;
export const PROGRESS_PER_SECOND = 10;

export interface ProgressCoalescer {
  /** Takes a report from the upstream. */
  report(progress: UpstreamProgress): void;
  /** Sends the pending report now (before the result) and stops the timer. */
  flush(): void;
}

export function coalesceProgress(
  deliver: (progress: UpstreamProgress) => void,
  now: () => number = Date.now,
): ProgressCoalescer {
  const bucket = createTokenBucket(PROGRESS_BURST, PROGRESS_PER_SECOND, now);
  let pending: UpstreamProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sendPending = () => {
    timer = undefined;
    if (pending === undefined) return;
    if (!bucket.take()) {
      timer = setTimeout(sendPending, bucket.wait());
      timer.unref();
      return;
    }
    const next = pending;
    pending = undefined;
    deliver(next);
  };
  return {
    report(progress) {
      // a newer report replaces the one waiting: only the latest figure matters
      pending = progress;
      if (timer === undefined) sendPending();
    },
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (pending === undefined) return;
      const last = pending;
      pending = undefined;
      deliver(last);
    },
  };
}
