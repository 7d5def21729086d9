/**
 * Keeps a running gateway's evidence in its learning file: written when it changed (at most every
 * 30 s, and at close), and forgotten when someone erased the file (`toolsift learning erase`), so
 * an erase needs no restart.
 */

import { existsSync } from "node:fs";
import { writeLearningFile } from "./learning-file.js";
import type { UsageLearning } from "./usage-learning.js";

/** Options of `keepLearningFile`. */
export interface LearningFileKeeperOptions {
  /** Milliseconds between checks (default 30,000). */
  intervalMs?: number;
  /** Told when a write fails; the gateway keeps serving and tries again at the next check. */
  onError?: (error: unknown) => void;
}

/** What `keepLearningFile` returns: `flush` writes now if anything changed; `close` flushes and
 * stops the timer. */
export interface LearningFileKeeper {
  flush(): void;
  close(): void;
}

/** Starts keeping `learning`'s evidence in `file` (see the module comment). */
export function keepLearningFile(
  learning: UsageLearning,
  file: string,
  options: LearningFileKeeperOptions = {},
): LearningFileKeeper {
  // the evidence as read from the file is on disk already
  let saved = learning.evidence.version;
  let onDisk = existsSync(file);
  const flush = () => {
    const { evidence } = learning;
    if (onDisk && !existsSync(file)) {
      // erased from outside: forget it here too, or the next write would bring it back
      evidence.erase();
      learning.refresh(true);
      saved = evidence.version;
      onDisk = false;
      return;
    }
    if (evidence.version === saved) return;
    try {
      writeLearningFile(file, evidence.toJSON());
      saved = evidence.version;
      onDisk = true;
    } catch (error) {
      options.onError?.(error);
    }
  };
  const timer = setInterval(flush, options.intervalMs ?? 30_000);
  // a gateway with nothing else to do still exits
  timer.unref();
  return {
    flush,
    close: () => {
      clearInterval(timer);
      flush();
    },
  };
}
