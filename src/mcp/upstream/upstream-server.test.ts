import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UpstreamProgress } from "../relay/call-scope.js";
import { LOG_BURST } from "./limit-log-messages.js";
import { createUpstreamServer, type UpstreamServer } from "./upstream-server.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const filesystem = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");
const relayServer = path.join(root, "test/fixtures/mcp/relay-server.mjs");
const stormServer = path.join(root, "test/fixtures/mcp/storm-server.mjs");

const text = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? "").join("");

describe("an upstream that answers too much, crashes or floods", () => {
  const opened: UpstreamServer[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const server of opened.splice(0)) await server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const open = (server: UpstreamServer) => {
    opened.push(server);
    return server;
  };

  it("fails each over-limit answer of server-filesystem (11 MB, five times) and stays up", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "toolsift-big-"));
    await writeFile(path.join(dir, "big.txt"), "x".repeat(11 * 1024 * 1024));
    await writeFile(path.join(dir, "small.txt"), "small file");
    const logs: string[] = [];
    const server = open(
      createUpstreamServer({
        name: "fs",
        config: { command: "node", args: [filesystem, dir] },
        log: (entry) => logs.push(entry.message),
        onTools: () => undefined,
      }),
    );
    await server.start();
    const pid = server.pid();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const big = await server.call("read_text_file", { path: path.join(dir, "big.txt") });
      expect(big.isError).toBe(true);
      // the text comes twice (content and structuredContent): a 22 MB line
      expect(text(big)).toMatch(
        /^Server "fs" answered tools\/call "read_text_file" with a 22\.\d MB message, over the 10\.0 MB/u,
      );
      expect(text(big)).toContain("the server stays up");
    }
    const small = await server.call("read_text_file", { path: path.join(dir, "small.txt") });
    expect(text(small)).toBe("small file");
    // never a crash: the same process, no restart
    expect(server.pid()).toBe(pid);
    expect(server.status()).toMatchObject({ state: "ready", restarts: 0 });
    expect(logs.filter((line) => /Skipped a 22\.\d MB message/u.test(line))).toHaveLength(5);
  }, 120_000);

  it("bounds the whole start with one limit: a slow pager cannot stretch it page by page", async () => {
    const logs: string[] = [];
    // four pages of 1.5 s each: every page is within the 4 s limit, the whole start is not
    const server = open(
      createUpstreamServer({
        name: "pager",
        config: { command: "node", args: [faultServer], env: { FAULT_PAGE_DELAY_MS: "1500" } },
        log: (entry) => logs.push(entry.message),
        onTools: () => undefined,
        startTimeoutMs: 4_000,
      }),
    );
    await expect(server.start()).rejects.toThrow(
      /Server "pager" did not finish starting \(initialize and every page of tools\/list\) within 4 s/,
    );
    expect(server.status()).toMatchObject({ state: "down" });
    expect(server.pid()).toBeUndefined();
  });

  it("says what a server that exits while starting wrote to stderr, naming it and the fix", async () => {
    const crashes = open(
      createUpstreamServer({
        name: "crashes",
        config: {
          command: "node",
          args: [
            "-e",
            "console.error('starting'); console.error('boom: API_KEY is not set'); process.exit(3)",
          ],
        },
        log: () => undefined,
        onTools: () => undefined,
      }),
    );
    const expected =
      /^Server "crashes" exited before it finished starting\. On stderr it said: "boom: API_KEY is not set"\. Fix "command", "args" or "env" for "crashes" in the config/u;
    await expect(crashes.start()).rejects.toThrow(expected);
    expect(crashes.status().error).toMatch(expected);
    // a mistyped script path: node's own words name the missing file
    const missing = open(
      createUpstreamServer({
        name: "badpath",
        config: { command: "node", args: ["/nonexistent/toolsift-server.js"] },
        log: () => undefined,
        onTools: () => undefined,
      }),
    );
    await expect(missing.start()).rejects.toThrow(
      /On stderr it said: "Error: Cannot find module '\/nonexistent\/toolsift-server\.js'"\. Fix/u,
    );
    // a server that says nothing that reads as a complaint: its last lines
    const quiet = open(
      createUpstreamServer({
        name: "quiet",
        config: {
          command: "node",
          args: ["-e", "console.error('one'); console.error('two'); process.exit(1)"],
        },
        log: () => undefined,
        onTools: () => undefined,
      }),
    );
    await expect(quiet.start()).rejects.toThrow(/On stderr it said: "one" \/ "two"\./u);
    const silent = open(
      createUpstreamServer({
        name: "silent",
        config: { command: "node", args: ["-e", "process.exit(0)"] },
        log: () => undefined,
        onTools: () => undefined,
      }),
    );
    await expect(silent.start()).rejects.toThrow(
      /^Server "silent" exited before it finished starting, without a word on stderr\./u,
    );
  }, 60_000);

  it("restarts a server again after a quiet period once maxRestarts attempts have failed", async () => {
    const server = open(
      createUpstreamServer({
        name: "fault",
        config: { command: "node", args: [faultServer] },
        log: () => undefined,
        onTools: () => undefined,
        maxRestarts: 1,
        // long enough to outlast a slow restart, short enough for a test
        restartQuietMs: 3_000,
      }),
    );
    await server.start();
    // crashes, then one restart that crashes again: the restarts are used up
    await server.call("crash", {});
    await server.call("crash", {});
    const refused = await server.call("echo", { text: "hi" });
    expect(text(refused)).toMatch(/1 restarts failed .*; the next attempt is in [1-3] s/u);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const after = await server.call("echo", { text: "back" });
    expect(after.isError).toBeFalsy();
    expect(text(after)).toBe("back");
  }, 60_000);

  it("coalesces a flood of progress reports and rate-limits log messages, counting the dropped", async () => {
    const received: UpstreamProgress[] = [];
    const logs: LoggingMessageNotification["params"][] = [];
    const server = open(
      createUpstreamServer({
        name: "flooder",
        config: { command: "node", args: [relayServer] },
        log: () => undefined,
        onTools: () => undefined,
        onLogMessage: (params) => logs.push(params),
      }),
    );
    await server.start();
    const count = 20_000;
    const result = await server.call("flood", { count }, { onProgress: (p) => received.push(p) });
    expect(text(result)).toBe(`flooded ${count}`);
    // the last report always arrives, before the result; most of the rest were replaced
    expect(received.at(-1)?.progress).toBe(count);
    expect(received.length).toBeLessThan(count / 10);
    const progressValues = received.map((p) => p.progress);
    expect([...progressValues].sort((a, b) => a - b)).toEqual(progressValues);
    // log messages: the burst passes, the rest are counted and told in a later line
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const lines = logs.filter((params) => params.logger !== "toolsift");
    expect(lines.length).toBeGreaterThanOrEqual(LOG_BURST);
    expect(lines.length).toBeLessThan(count / 10);
    const notices = logs.filter((params) => params.logger === "toolsift");
    const dropped = notices
      .map((params) => Number(/Dropped (\d+) log message/u.exec(String(params.data))?.[1]))
      .reduce((sum, n) => sum + n, 0);
    expect(notices[0]?.data).toContain('from server "flooder"');
    expect(lines.length + dropped).toBe(count);
  }, 60_000);

  it("re-lists once per burst of tools/list_changed (2,000 at once), ending on the latest list", async () => {
    const listings: string[][] = [];
    const server = open(
      createUpstreamServer({
        name: "storm",
        config: { command: "node", args: [stormServer] },
        log: () => undefined,
        onTools: (tools) => listings.push(tools.map((tool) => tool.name)),
      }),
    );
    await server.start();
    const count = 2_000;
    expect(text(await server.call("storm", { count }))).toBe(`version ${count}`);
    await vi.waitFor(() => expect(listings.at(-1)).toContain(`v${count}`), { timeout: 60_000 });
    // the server answers in order: every tools/list the storm caused is counted by now
    const lists = Number(text(await server.call("lists", {})));
    // the start's listing, the burst's first, and one more for what arrived during it
    expect(lists).toBeLessThanOrEqual(4);
    expect(listings.at(-1)).toContain(`v${count}`);
  }, 120_000);

  it("passes no progress for a call after its result, though the server claimed a task", async () => {
    const received: UpstreamProgress[] = [];
    const server = open(
      createUpstreamServer({
        name: "storm",
        config: { command: "node", args: [stormServer] },
        log: () => undefined,
        onTools: () => undefined,
      }),
    );
    await server.start();
    const done = await server.call("task_reply", {}, { onProgress: (p) => received.push(p) });
    expect(text(done)).toBe("done");
    const before = received.length;
    // the server reports on the finished call's token, then answers this call
    expect(text(await server.call("stale_progress", {}))).toMatch(/^reported on \d+$/u);
    // the SDK handles a notification a little after the response read with it (a settle wait)
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.length).toBe(before);
  }, 60_000);
});
