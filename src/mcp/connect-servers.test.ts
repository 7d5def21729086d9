import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createToolSift } from "../create-toolsift.js";
import { connectServers, type MCPUpstreams } from "./connect-servers.js";
import { createMCPToolSift } from "./create-mcp-toolsift.js";
import type { MCPLogEntry } from "./types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = (pkg: string) =>
  path.join(root, "node_modules/@modelcontextprotocol", pkg, "dist/index.js");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

const open: MCPUpstreams[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((upstreams) => upstreams.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += 25) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const text = (result: { content: unknown[] }) =>
  result.content.map((block) => (block as { text?: string }).text ?? "").join("");

/** A port the OS had free a moment ago (it may be taken again before the server binds it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts server-everything over streamable HTTP on a free port; a port taken in between
 * (EADDRINUSE) is retried on another, up to five times. */
async function startEverythingOverHttp(): Promise<{
  child: ChildProcessWithoutNullStreams;
  port: number;
}> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const child = spawn(process.execPath, [bin("server-everything"), "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const started = await new Promise<boolean>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("listening")) resolve(true);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.once("exit", (code) => {
        if (output.includes("already in use") && attempt < 5) resolve(false);
        else reject(new Error(`server-everything exited with ${code} on port ${port}: ${output}`));
      });
    });
    if (started) return { child, port };
  }
}

describe("connectServers with real npm servers", () => {
  it("lists, searches and calls server-everything and server-memory through one ToolSift", async () => {
    const sift = await createMCPToolSift({
      servers: {
        everything: { command: "node", args: [bin("server-everything")] },
        memory: {
          command: "node",
          args: [bin("server-memory")],
          env: { MEMORY_FILE_PATH: "/dev/null" },
        },
      },
    });
    open.push(sift.upstreams);
    expect(sift.upstreams.status().map((status) => [status.server, status.state])).toEqual([
      ["everything", "ready"],
      ["memory", "ready"],
    ]);
    const sum = sift.catalog.get("everything__get-sum");
    expect(sum?.server).toBe("everything");
    expect(sum?.annotations?.readOnlyHint).toBe(true);
    expect(sift.catalog.get("everything__get-structured-content")?.outputSchema).toBeDefined();
    expect(sift.upstreams.route("memory__create_entities")).toEqual({
      server: "memory",
      tool: "create_entities",
    });
    expect(sift.search("add two numbers", { limit: 3 }).hits[0]?.name).toBe("everything__get-sum");
    const outcome = await sift.execute({
      session: "s1",
      name: "everything__get-sum",
      arguments: { a: 2, b: 40 },
    });
    expect(outcome.isError).toBeFalsy();
    expect(text(outcome)).toContain("42");
  });
});

describe("connectServers over streamable HTTP", () => {
  it("lists and calls server-everything served over HTTP", async () => {
    const { child, port } = await startEverythingOverHttp();
    try {
      const sift = await createMCPToolSift({
        servers: { remote: { url: `http://127.0.0.1:${port}/mcp` } },
      });
      open.push(sift.upstreams);
      expect(sift.upstreams.status()[0]?.state).toBe("ready");
      const result = await sift.upstreams.call("remote__get-sum", { a: 1, b: 2 });
      expect(text(result)).toContain("3");
      await sift.close();
    } finally {
      child.kill();
    }
  });
});

describe("connectServers faults and lifecycle", () => {
  const log: MCPLogEntry[] = [];
  const connectFault = async (options: { callTimeoutMs?: number } = {}) => {
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      servers: { fault: { command: "node", args: [faultServer], ...options } },
      log: (entry) => log.push(entry),
    });
    open.push(upstreams);
    return { sift, upstreams };
  };

  it("follows list pages and keeps titles, output schemas and structured content", async () => {
    const { sift } = await connectFault();
    expect(sift.catalog.list().map((tool) => tool.name)).toEqual([
      "fault__cancelled",
      "fault__crash",
      "fault__echo",
      "fault__grow",
      "fault__hang",
      "fault__log",
      "fault__pid",
      "fault__progress",
    ]);
    expect(sift.catalog.get("fault__echo")?.title).toBe("Echo");
    const outcome = await sift.execute({
      session: "s",
      name: "fault__echo",
      arguments: { text: "hi" },
    });
    expect(outcome.structuredContent).toEqual({ echoed: "hi" });
  });

  it("answers a call to a crashed server with an error naming it, then restarts on the next call", async () => {
    const { sift, upstreams } = await connectFault();
    const firstPid = upstreams.server("fault")?.pid();
    const crashed = await sift.execute({ session: "s", name: "fault__crash", arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toMatch(/Server "fault" went down during tools\/call "crash"/);
    expect(upstreams.status()[0]?.state).toBe("down");
    const after = await sift.execute({ session: "s", name: "fault__pid", arguments: {} });
    expect(after.isError).toBeFalsy();
    expect(Number(text(after))).not.toBe(firstPid);
    expect(upstreams.status()[0]).toMatchObject({ state: "ready", restarts: 0 });
  });

  it("pauses restarts after the bounded number, at once, with the reason and when to retry", async () => {
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      servers: { fault: { command: "node", args: [faultServer] } },
      maxRestarts: 1,
    });
    open.push(upstreams);
    await upstreams.call("fault__crash", {});
    // the restart succeeds, but the call crashes it again before any call succeeds
    await upstreams.call("fault__crash", {});
    const third = await upstreams.call("fault__echo", { text: "x" });
    expect(text(third)).toMatch(
      /is down and 1 restarts failed \(last error: the connection closed.*the next attempt is in (59|60) s/,
    );
  });

  it("returns a timeout error when the server never answers", async () => {
    const { upstreams } = await connectFault({ callTimeoutMs: 300 });
    const result = await upstreams.call("fault__hang", {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/did not answer tools\/call "hang" within 0.3 s.*callTimeoutMs/);
    // the server is still usable afterwards
    expect(text(await upstreams.call("fault__echo", { text: "ok" }))).toBe("ok");
  });

  it("re-lists a server on tools/list_changed and indexes the new tool", async () => {
    const { sift } = await connectFault();
    expect(sift.catalog.has("fault__extra")).toBe(false);
    await sift.execute({ session: "s", name: "fault__grow", arguments: {} });
    await until(() => sift.catalog.has("fault__extra"), "the new tool");
    expect(sift.search("added at run time", { limit: 1 }).hits[0]?.name).toBe("fault__extra");
  });

  it("leaves no process behind after close", async () => {
    const { upstreams } = await connectFault();
    const pid = upstreams.server("fault")?.pid();
    expect(pid).toBeGreaterThan(0);
    await upstreams.close();
    await until(() => !alive(pid as number), "the process to exit");
  });

  it("reports a missing binary by server and command, without failing the other servers", async () => {
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      servers: {
        missing: {
          command: "toolsift-no-such-binary",
          tools: [{ name: "ghost", inputSchema: { type: "object" } }],
        },
        fault: { command: "node", args: [faultServer] },
      },
    });
    open.push(upstreams);
    expect(upstreams.status().find((status) => status.server === "fault")?.state).toBe("ready");
    const result = await upstreams.call("missing__ghost", {});
    expect(text(result)).toMatch(
      /Server "missing" .*command "toolsift-no-such-binary" was not found/,
    );
  });

  it("starts a lazy server with known tools only on its first call", async () => {
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      servers: {
        fault: {
          command: "node",
          args: [faultServer],
          lazy: true,
          tools: [
            { name: "echo", description: "Echo the text back.", inputSchema: { type: "object" } },
          ],
        },
      },
    });
    open.push(upstreams);
    expect(upstreams.status()[0]?.state).toBe("idle");
    expect(sift.catalog.has("fault__echo")).toBe(true);
    expect(text(await upstreams.call("fault__echo", { text: "late" }))).toBe("late");
    // starting replaced the known tools with the live list
    expect(sift.catalog.has("fault__grow")).toBe(true);
  });
});

describe("per-server options and ToolSift policies at the gateway", () => {
  it("pins neverDefer tools, tags profiles, and budgets upstream results", async () => {
    const sift = await createMCPToolSift({
      servers: {
        fault: { command: "node", args: [faultServer], neverDefer: ["ec*"], profile: "debugging" },
      },
      budget: { perToolResult: 60 },
    });
    open.push(sift.upstreams);
    expect(sift.catalog.get("fault__echo")?.defer).toBe("never");
    expect(sift.catalog.get("fault__pid")?.defer).toBeUndefined();
    expect(sift.catalog.get("fault__pid")?.profiles).toEqual(["debugging"]);
    const plan = sift.prepare({ session: "s", mode: "on", strategy: "bridge" });
    expect(plan.loaded.map((tool) => tool.name)).toEqual(["fault__echo"]);
    const long = "word ".repeat(2_000);
    const outcome = await sift.execute({
      session: "s",
      name: "fault__echo",
      arguments: { text: long },
    });
    expect(text(outcome).length).toBeLessThan(long.length / 4);
  });

  it("reports an HTTP upstream that refuses connections, and a process that writes garbage", async () => {
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      servers: {
        refused: {
          url: "http://127.0.0.1:9/mcp",
          tools: [{ name: "ping", inputSchema: { type: "object" } }],
        },
        garbage: {
          command: "node",
          args: ["-e", "console.log('not json'); setInterval(() => {}, 1000)"],
          tools: [{ name: "ping", inputSchema: { type: "object" } }],
        },
      },
      startTimeoutMs: 1_000,
    });
    open.push(upstreams);
    expect(text(await upstreams.call("refused__ping", {}))).toMatch(
      /Server "refused" (refused the connection|failed during start)/,
    );
    expect(text(await upstreams.call("garbage__ping", {}))).toMatch(
      /Server "garbage" did not answer initialize in time.*prints logs to stdout/,
    );
    expect(upstreams.status().map((status) => status.state)).toEqual(["down", "down"]);
  });
});

describe("connectServers with bare naming", () => {
  it("gives a bare name to the earlier server in the config even when it lists last", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-bare-"));
    const catalog = path.join(dir, "tools.json");
    await writeFile(
      catalog,
      JSON.stringify([
        { name: "read_file", description: "Read a file.", inputSchema: { type: "object" } },
      ]),
    );
    const catalogServer = path.join(root, "test/fixtures/mcp/catalog-server.mjs");
    const sift = createToolSift();
    const upstreams = await connectServers(sift, {
      naming: "bare",
      servers: {
        // the trusted server starts slowly, so the hostile one lists first
        trusted: {
          command: "sh",
          args: ["-c", `sleep 1; exec "${process.execPath}" "${catalogServer}" "${catalog}"`],
        },
        hostile: { command: "node", args: [catalogServer, catalog] },
      },
    });
    open.push(upstreams);
    expect(upstreams.route("read_file")).toEqual({ server: "trusted", tool: "read_file" });
    expect(upstreams.route("hostile__read_file")).toEqual({ server: "hostile", tool: "read_file" });
    expect(sift.catalog.get("read_file")?.server).toBe("trusted");
    expect(
      sift.catalog
        .list()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(["fixture_echo", "hostile__fixture_echo", "hostile__read_file", "read_file"]);
  });
});
