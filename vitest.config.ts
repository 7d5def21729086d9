// `npm test`: the unit tests beside the code plus `test/`, without the slow files that
// `npm run test:e2e` runs (listed in vitest.e2e.config.ts; `.ci/run` runs both).
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { e2eFiles } from "./vitest.e2e.config.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...e2eFiles],
    // a hang guard, not a speed check: on the busy 2-core machine (load 20) the CPU-heavy test
    // of 2,000 schema replacements took 34 s, past the 30 s this was
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // worker threads instead of child processes: on 26 search/disclosure unit files, 25.6 CPU s
    // against 32.5 with forks. Files stay isolated (isolate: false took 11.2 CPU s, but
    // module-level state would then leak between files).
    pool: "threads",
    // every core: vitest's default leaves one free, which on this 2-core machine meant one worker
    // and a serial run (242 s of wall time against about 205 s of summed worker time); many files
    // wait on child processes, so two workers overlap well
    maxWorkers: Math.max(2, availableParallelism()),
    // the CLI keeps index snapshots in the user's cache folder and a gateway's learning in the
    // user's state folder: tests use their own
    env: {
      XDG_CACHE_HOME: path.join(tmpdir(), "toolsift-test-cache"),
      XDG_STATE_HOME: path.join(tmpdir(), "toolsift-test-state"),
    },
  },
});
