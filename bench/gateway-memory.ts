/**
 * The gateway's resident memory as a user runs it: `toolsift serve --http` in its own process
 * (the built CLI when present, else from source), the 20 real catalogs as lazy servers read from
 * `catalog` files (as a config of known servers would, none started), then 50 and 2,000 idle
 * HTTP sessions, and after they expire. RSS read from /proc/PID/status (Linux).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sharedDir } from "../test/shared-dir.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

async function writeConfig(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-bench-memory-"));
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

/** RSS (MiB) at start, with 50 and 2,000 idle sessions, and after they expired. */
export async function gatewayMemory(): Promise<Record<string, number>> {
  const config = await writeConfig();
  const built = path.join(root, "dist/cli/main.js");
  const args = existsSync(built)
    ? [built]
    : ["--import", "tsx", path.join(root, "src/cli/main.ts")];
  const idleMs = 4_000;
  const child = spawn(
    process.execPath,
    [
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
    await settle();
    const figures: Record<string, number> = {};
    figures["RSS at start, 20 real catalogs as lazy servers (MiB)"] = await rssMiB(
      child.pid as number,
    );
    await openSessions(url, 50);
    await settle();
    figures["RSS with 50 idle HTTP sessions (MiB)"] = await rssMiB(child.pid as number);
    await openSessions(url, 1_950);
    await settle();
    figures["RSS with 2,000 idle HTTP sessions (MiB)"] = await rssMiB(child.pid as number);
    // the sweep closes them within 1.5 × the idle time; the heap shrinks at the next collections
    await new Promise((resolve) => setTimeout(resolve, idleMs * 2 + 1_000));
    figures["RSS after those sessions expired (MiB)"] = await rssMiB(child.pid as number);
    return figures;
  } finally {
    child.kill("SIGTERM");
  }
}
