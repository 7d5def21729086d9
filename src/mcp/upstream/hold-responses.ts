/**
 * Keeps an upstream's last progress reports from being dropped. Both SDKs (v1 and v2) handle a
 * notification one microtask late but a response at once, and forget a request's progress
 * callback when its response arrives: a server's last report, sent just before its result, would
 * be lost (over stdio, where they arrive in one read, every report can be). While calls that want
 * progress are in flight, each response waits one macrotask, so the reports read before it are
 * handled first.
 */

/** The part of a transport (either SDK) whose incoming messages are delayed. */
interface MessageSource<M extends object, E> {
  onmessage?: ((message: M, extra?: E) => void) | undefined;
}

/** Wraps `transport.onmessage` (set by the client's `connect`); call it after connecting. */
export function holdResponsesBehindProgress<M extends object, E>(
  transport: MessageSource<M, E>,
  active: () => boolean,
): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if (active() && ("result" in message || "error" in message)) {
      setImmediate(() => deliver(message, extra));
    } else {
      deliver(message, extra);
    }
  };
}
