// `npm run test:e2e`: the slow tests, which `npm test` leaves out and `.ci/run` runs after it.
// They drive Chromium, pack and install the tarball, spawn the real npm MCP servers or the CLI
// through tsx, or run the MCP conformance suite: each file costs seconds of process start-up, and
// the features they cover keep fast unit tests in `npm test`. The list is chosen from measured
// per-file durations (README, "Develop"); `vitest.config.ts` excludes exactly these files.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import { defineConfig } from "vitest/config";

/** Files by name wherever they sit (`**` survives a move into a subfolder). */
export const e2eFiles = [
  // Chromium through playwright-core
  "test/inspector/*.browser.test.ts",
  "test/e2e/react-page-chromium.test.ts",
  // npm pack, then npm install in an empty project
  "test/package/packed-tarball.test.ts",
  // `npm run demo` and the CLI through tsx as child processes
  "test/first-contact/demo.test.ts",
  // the MCP conformance suite and its fixture servers
  "src/**/conformance.test.ts",
  "src/**/conformance-client.test.ts",
  "src/**/conformance-auth.test.ts",
  "src/**/protocol-eras.test.ts",
  // the real npm MCP servers (server-everything, server-memory) as child processes
  "src/**/connect-servers.test.ts",
  "src/**/serve-gateway.test.ts",
  // three gateway replicas, each over its own server-everything, and a private redis-server
  "src/mcp/state/replicas.test.ts",
  // two replicas over the relay fixture server, one stopped with a call in flight
  "src/mcp/state/replica-faults.test.ts",
  // three replica processes, 1,000 calls from 100 sessions
  "src/mcp/state/replicas-load.test.ts",
  // three `toolsift serve` replica processes, one killed (SIGKILL) with a call in flight
  "src/mcp/state/replica-death.test.ts",
  "src/**/pass-through.test.ts",
  // fixture MCP servers as child processes: pinning through the CLI, an 11 MB read from the real
  // server-filesystem, 200 interleaved relay rounds, 500 sessions expired and collected
  "src/**/approve.test.ts",
  "src/**/upstream-server.test.ts",
  "src/**/client-relay.test.ts",
  // three HTTP sessions over the storm fixture's 2,000-notification burst (13 s under load)
  "src/**/forward-upstream-events.test.ts",
  "src/**/session-release.test.ts",
  // tsc over the README's blocks; the README's CLI lines and a closed pipe through tsx
  "test/readme/readme-code.test.ts",
  "test/first-contact/readme-cli.test.ts",
  "src/**/closed-pipe.test.ts",
  // the gateway answering while an upstream takes 20 s (and another 8 s) to start: mostly waiting
  "src/cli/commands/serve-start.test.ts",
  // two pairs of CLI processes through tsx sharing one cache folder (14 s under load)
  "src/cli/catalog-cache.test.ts",
  // esbuild's CLI bundle built into a temporary package and run (8 s under load)
  "test/package/cli-bundle.test.ts",
];

// a renamed file would silently leave both suites, so each pattern must still match a file
const testFiles = ["src", "test"].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).map((file) => `${dir}/${file}`),
);
for (const pattern of e2eFiles) {
  if (!testFiles.some(picomatch(pattern))) {
    throw new Error(
      `vitest.e2e.config.ts: "${pattern}" matches no test file; update the list after a rename.`,
    );
  }
}

export default defineConfig({
  test: {
    include: e2eFiles,
    // a hang guard, not a speed check: on the busy 2-core machine (load 20) the CPU-heavy test
    // of 2,000 schema replacements took 34 s, past the 30 s this was
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // most of these files wait (child processes starting, an upstream's 20 s start, a browser)
    // rather than compute, so two run at once even on two cores, where vitest's default is one
    // (the suite took 378 s that way in CI); three timed out under load
    maxWorkers: 2,
    // the CLI keeps index snapshots in the user's cache folder and a gateway's learning in the
    // user's state folder: tests use their own
    env: {
      XDG_CACHE_HOME: path.join(tmpdir(), "toolsift-test-cache"),
      XDG_STATE_HOME: path.join(tmpdir(), "toolsift-test-state"),
    },
  },
});
