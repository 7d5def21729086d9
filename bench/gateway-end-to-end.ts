/**
 * The latency `toolsift serve` adds to one `tools/call`, end to end as a client meets it: the
 * official SDK client, the real CLI in its own process (the built one when present, as a client
 * config runs it; else from source), and a real upstream (server-everything's `echo`). The same
 * client calls the same upstream directly in the same run, over the same transport (stdio to the
 * upstream's stdio; HTTP to the upstream's own streamable HTTP server), rounds interleaved so
 * machine noise hits both alike. Over HTTP the stdio-direct figure is kept beside it: what a
 * client that ran the upstream itself over stdio gains or loses by going through the gateway.
 * A second fresh gateway started with `--no-warm-up` is timed in the same rounds of the first
 * 200 calls ("no warm-up" figures): what the warm-up of the SDK's checks (warm-relay.ts) saves.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const everything = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
/** A fresh gateway's first calls, as an independent 200-call run meets them (JIT warm-up
 * included), then the same gateway in steady state, after 1,000 more calls. */
const FRESH = { warmUp: 20, calls: 200, rounds: 5 };
const STEADY = { warmUp: 1_000, calls: 2_000, rounds: 10 };
type Phase = typeof FRESH;

// extra node flags for the gateway process, e.g. BENCH_GATEWAY_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/p"
const GATEWAY_NODE_FLAGS = (process.env.BENCH_GATEWAY_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** CPU time (user + system, ms) a process has used so far, from /proc/PID/stat (Linux; clock
 * ticks of 10 ms, so it is read over many calls). */
async function cpuMs(pid: number | null | undefined): Promise<number> {
  if (!pid) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // the fields after the command name (which may hold spaces) start with the state, field 3
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

async function timeCalls(client: Client, name: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await client.callTool({ name, arguments: { message: `m${i}` } });
    times.push(performance.now() - start);
  }
  return times;
}

/** The gateway CLI as a child process (its pid beside it); over HTTP it prints its URL on
 * stderr. */
async function spawnGateway(
  config: string,
  http: boolean,
  extra: readonly string[] = [],
): Promise<{ client: Client; pid: number | null }> {
  const built = path.join(root, "dist/cli/main.js");
  const entry = existsSync(built)
    ? [built]
    : ["--import", "tsx", path.join(root, "src/cli/main.ts")];
  const cli = [...GATEWAY_NODE_FLAGS, ...entry, "serve", "--config", config, ...extra];
  const client = new Client({ name: "bench", version: "1" });
  if (!http) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cli, "--mode", "direct"],
      cwd: root,
    });
    await client.connect(transport);
    return { client, pid: transport.pid };
  }
  // a stdio transport keeps the process's stdin open (serve ends on stdin end) and reads stderr
  const holder = new StdioClientTransport({
    command: process.execPath,
    args: [...cli, "--mode", "direct", "--http", "127.0.0.1:0"],
    cwd: root,
    stderr: "pipe",
  });
  let stderr = "";
  holder.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  await holder.start();
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`no URL from serve --http:\n${stderr}`)),
      120_000,
    );
    const poll = setInterval(() => {
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (!match?.[1]) return;
      clearInterval(poll);
      clearTimeout(deadline);
      resolve(match[1]);
    }, 50);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await holder.close();
  };
  return { client, pid: holder.pid };
}

/** Waits until the gateway lists the upstream's echo (serve answers before upstreams are up). */
async function waitForTool(client: Client, name: string): Promise<void> {
  for (let tries = 0; tries < 600; tries += 1) {
    const { tools } = await client.listTools();
    if (tools.some((tool) => tool.name === name)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the gateway never listed ${name}`);
}

/** A free loopback port (closed again at once; the upstream binds it right after). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything over its own streamable HTTP server, and a client of it. */
async function directOverHttp(): Promise<Omit<Direct, "label">> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`server-everything did not listen:\n${stderr}`)),
      60_000,
    );
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (!/listening on port/i.test(stderr)) return;
      clearTimeout(deadline);
      resolve();
    });
  });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    client,
    pid: child.pid,
    stop: async () => {
      await client.close();
      child.kill("SIGTERM");
    },
  };
}

interface Direct {
  label: string;
  client: Client;
  pid: number | null | undefined;
  stop: () => Promise<void> | void;
}

async function directOverStdio(): Promise<Direct> {
  const client = new Client({ name: "bench", version: "1" });
  const transport = new StdioClientTransport({ command: "node", args: [everything] });
  await client.connect(transport);
  return { label: "stdio", client, pid: transport.pid, stop: () => client.close() };
}

interface Run {
  client: Client;
  tool: string;
  pid: number | null | undefined;
}

/** Times a phase's calls in rounds, each run's interleaved with the others', with the CPU each
 * process used over them (the `cpu` field is per call). */
async function timeInRounds(
  runs: Run[],
  phase: Phase,
): Promise<{ times: number[]; cpu: number }[]> {
  const out = runs.map(() => ({ times: [] as number[], cpu: 0 }));
  for (const run of runs) await timeCalls(run.client, run.tool, phase.warmUp);
  for (let round = 0; round < phase.rounds; round += 1) {
    for (const [index, run] of runs.entries()) {
      const before = await cpuMs(run.pid);
      out[index]?.times.push(
        ...(await timeCalls(run.client, run.tool, phase.calls / phase.rounds)),
      );
      (out[index] as { cpu: number }).cpu += (await cpuMs(run.pid)) - before;
    }
  }
  for (const entry of out) {
    entry.times.sort((a, b) => a - b);
    entry.cpu /= phase.calls;
  }
  return out;
}

/** A phase's figures, named `e2e VIA LABEL: …`. */
function phaseFigures(
  via: string,
  label: string,
  directs: Direct[],
  [g, ...viaDirect]: { times: number[]; cpu: number }[],
): Record<string, number> {
  const gateway = g as { times: number[]; cpu: number };
  const [g50, g99] = [quantile(gateway.times, 0.5), quantile(gateway.times, 0.99)];
  const name = (what: string) => `e2e ${via}${label}: ${what}`;
  const figures: Record<string, number> = {
    [name("gateway p50 (ms)")]: g50,
    [name("gateway p99 (ms)")]: g99,
    [name("gateway CPU per call (ms)")]: gateway.cpu,
  };
  for (const [index, direct] of directs.entries()) {
    const d = viaDirect[index] as { times: number[]; cpu: number };
    const [d50, d99] = [quantile(d.times, 0.5), quantile(d.times, 0.99)];
    const vs = direct.label === via ? "" : ` vs ${direct.label} direct`;
    Object.assign(figures, {
      [name(`direct ${direct.label} p50 (ms)`)]: d50,
      [name(`added p50${vs} (ms)`)]: g50 - d50,
      [name(`gateway/direct p50${vs}`)]: g50 / d50,
      [name(`added p99${vs} (ms)`)]: g99 - d99,
      [name(`upstream CPU per direct ${direct.label} call (ms)`)]: d.cpu,
      [name(`gateway CPU / upstream CPU${vs}`)]: gateway.cpu / d.cpu,
    });
  }
  return figures;
}

async function addedLatency(http: boolean): Promise<Record<string, number>> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-bench-e2e-"));
  const config = path.join(dir, "gateway.json");
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { ev: { command: "node", args: [everything] } } }),
  );
  // over HTTP the like-for-like baseline is the upstream's own HTTP server; stdio stays beside it
  const directs: Direct[] = [await directOverStdio()];
  if (http) directs.unshift({ label: "HTTP", ...(await directOverHttp()) });
  const { client: gateway, pid } = await spawnGateway(config, http);
  // beside it, a fresh gateway that skips the warm-up (warm-relay.ts), timed in the same rounds
  const cold = await spawnGateway(config, http, ["--no-warm-up"]);
  await waitForTool(gateway, "ev__echo");
  await waitForTool(cold.client, "ev__echo");
  // the CPU of the gateway process over its calls, and of each upstream over its direct ones:
  // what the gateway costs per call on a machine too loaded for latency alone to show it
  const direct: Run[] = directs.map((d) => ({ client: d.client, tool: "echo", pid: d.pid }));
  const runs: Run[] = [{ client: gateway, tool: "ev__echo", pid }, ...direct];
  const coldRun: Run = { client: cold.client, tool: "ev__echo", pid: cold.pid };
  const [warmed, unwarmed, ...viaDirect] = await timeInRounds(
    [...runs.slice(0, 1), coldRun, ...direct],
    FRESH,
  );
  await cold.client.close();
  const steady = await timeInRounds(runs, STEADY);
  await gateway.close();
  for (const d of directs) await d.stop();
  const via = http ? "HTTP" : "stdio";
  const fresh = (first: typeof warmed) => [first as NonNullable<typeof first>, ...viaDirect];
  return {
    ...phaseFigures(via, "", directs, fresh(warmed)),
    ...phaseFigures(via, " no warm-up", directs, fresh(unwarmed)),
    ...phaseFigures(via, " steady state", directs, steady),
  };
}

/** Added latency per `tools/call` through the real CLI, over stdio and over HTTP. */
export async function gatewayEndToEnd(): Promise<Record<string, number>> {
  return { ...(await addedLatency(false)), ...(await addedLatency(true)) };
}
