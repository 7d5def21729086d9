/**
 * The gateway's resident memory as a user runs it: `toolsift serve --http` in its own process
 * (the built CLI when present, else from source), the 20 real catalogs as lazy servers read from
 * `catalog` files (as a config of known servers would, none started), then 50 and 2,000 idle
 * HTTP sessions, and after they expire. RSS read from /proc/PID/status (Linux) as the process
 * stands, then again after a full collection (the child runs with --expose-gc and a preload that
 * collects and reports `process.memoryUsage()` on SIGUSR2), with heapUsed beside it.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sharedDir } from "../test/shared-dir.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

// loaded into the gateway with --import: collects twice and prints its memory on SIGUSR2
const PROBE = `process.on("SIGUSR2", () => {
  globalThis.gc(); globalThis.gc();
  const m = process.memoryUsage();
  process.stderr.write("MEMORY " + JSON.stringify(m) + "\\n");
});`;

async function writeConfig(dir: string): Promise<string> {
  const catalogs = path.join(sharedDir(), "catalogs");
  const servers: Record<string, unknown> = {};
  for (const file of (await readdir(catalogs)).filter((name) => name.endsWith(".json")).sort()) {
    const name = file.replace(/\.json$/, "").replace(/[^A-Za-z0-9_-]/g, "-");
    servers[name] = {
      command: "node",
      args: ["-e", ""],
      lazy: true,
      catalog: path.join(catalogs, file),
    };
  }
  const config = path.join(dir, "gateway.json");
  await writeFile(config, JSON.stringify({ servers }));
  return config;
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  },
});

async function openSessions(url: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: initialize,
    });
    await response.text();
    if (response.status !== 200) throw new Error(`initialize ${index} answered ${response.status}`);
  }
}

/** One session that lists its tools: the first plan counts the meta tools and the directory
 * exactly, which loads the o200k tokenizer (about 14 MiB of heap). */
async function listOnce(url: string): Promise<void> {
  const opened = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: initialize,
  });
  await opened.text();
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": opened.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": "2025-06-18",
  };
  for (const body of [
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ]) {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    await response.text();
    if (response.status >= 300) throw new Error(`${body.method} answered ${response.status}`);
  }
}

/** RSS (MiB) at start, with 50 and 2,000 idle sessions, after they expired, and after one
 * session listed its tools; each also after a full collection, with the heap then in use.
 * `nodeFlags` go to the gateway's node (e.g. `--max-semi-space-size=2`). */
export async function gatewayMemory(nodeFlags: string[] = []): Promise<Record<string, number>> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-bench-memory-"));
  const config = await writeConfig(dir);
  const probe = path.join(dir, "probe.mjs");
  await writeFile(probe, PROBE);
  const built = path.join(root, "dist/cli/main.js");
  const args = existsSync(built)
    ? [built]
    : ["--import", "tsx", path.join(root, "src/cli/main.ts")];
  const idleMs = 4_000;
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      "--expose-gc",
      "--import",
      pathToFileURL(probe).href,
      ...args,
      "serve",
      "--config",
      config,
      "--http",
      "127.0.0.1:0",
      "--max-sessions",
      "3000",
      "--session-idle-ms",
      String(idleMs),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  try {
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const found = / at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
        if (found) resolve(found);
      });
      child.once("exit", () => reject(new Error(`the gateway exited: ${stderr}`)));
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
    const pid = child.pid as number;
    // the next MEMORY line the probe prints after a SIGUSR2
    const collected = () =>
      new Promise<NodeJS.MemoryUsage>((resolve) => {
        const from = stderr.length;
        const onData = () => {
          const line = /MEMORY (\{.*\})\n/.exec(stderr.slice(from))?.[1];
          if (line === undefined) return;
          child.stderr.off("data", onData);
          resolve(JSON.parse(line) as NodeJS.MemoryUsage);
        };
        child.stderr.on("data", onData);
        child.kill("SIGUSR2");
      });
    const figures: Record<string, number> = {};
    const flags = nodeFlags.length > 0 ? `, ${nodeFlags.join(" ")}` : "";
    const measure = async (situation: string) => {
      const label = `${situation}${flags}`;
      figures[`RSS ${label} (MiB)`] = await rssMiB(pid);
      const memory = await collected();
      figures[`  ${label}, after gc: RSS (MiB)`] = await rssMiB(pid);
      figures[`  ${label}, after gc: heapUsed (MiB)`] = memory.heapUsed / 2 ** 20;
      figures[`  ${label}, after gc: external (MiB)`] = memory.external / 2 ** 20;
    };
    await settle();
    await measure("at start, 20 real catalogs as lazy servers");
    await openSessions(url, 50);
    await settle();
    await measure("with 50 idle HTTP sessions");
    await openSessions(url, 1_950);
    await settle();
    await measure("with 2,000 idle HTTP sessions");
    // the sweep closes them within 1.5 × the idle time
    await new Promise((resolve) => setTimeout(resolve, idleMs * 2 + 1_000));
    await measure("after those sessions expired");
    await listOnce(url);
    await settle();
    await measure("after one session listed its tools");
    return figures;
  } finally {
    child.kill("SIGTERM");
  }
}
