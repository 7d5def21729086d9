/**
 * An upstream's log messages (`notifications/message`), rate-limited per server before they are
 * passed to every client session: a burst of `LOG_BURST` goes through, then `LOG_PER_SECOND`.
 * What is dropped is counted, and the count is told to the clients in a later log line (when
 * the next message is let through, or a second after the last drop, whichever comes first).
 */
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { createTokenBucket } from "./token-bucket.js";

export const LOG_BURST = 100;
export const LOG_PER_SECOND = 20;

type LogParams = LoggingMessageNotification["params"];

/** Returns the function to hand each of `server`'s log messages to; `pass` gets those kept and
 * the drop notices. `now` is for tests. */
export function limitLogMessages(
  server: string,
  pass: (params: LogParams) => void,
  now: () => number = Date.now,
): (params: LogParams) => void {
  const bucket = createTokenBucket(LOG_BURST, LOG_PER_SECOND, now);
  let dropped = 0;
  let notice: NodeJS.Timeout | undefined;
  const tellDropped = () => {
    if (notice !== undefined) clearTimeout(notice);
    notice = undefined;
    if (dropped === 0) return;
    pass({
      level: "warning",
      logger: "toolsift",
      data: `Dropped ${dropped} log message${dropped === 1 ? "" : "s"} from server "${server}": it sent more than ${LOG_PER_SECOND} a second (after a burst of ${LOG_BURST}). Look at the server's own logs for them.`,
    });
    dropped = 0;
  };
  return (params) => {
    if (!bucket.take()) {
      dropped += 1;
      if (notice === undefined) {
        notice = setTimeout(tellDropped, 1000);
        notice.unref();
      }
      return;
    }
    tellDropped();
    pass(params);
  };
}
