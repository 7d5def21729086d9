/**
 * The latency `toolsift serve` adds to one `tools/call`, end to end as a client meets it: the
 * official SDK client, the real CLI in its own process (over stdio, then over HTTP), and a real
 * upstream (server-everything's `echo`). The same client calls the same upstream directly in
 * the same run, rounds interleaved so machine noise hits both alike.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
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
const CALLS = 200;
const ROUNDS = 5;
const WARM_UP = 20;

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
): Promise<{ client: Client; pid: number | null }> {
  const cli = [
    ...GATEWAY_NODE_FLAGS,
    "--import",
    "tsx",
    path.join(root, "src/cli/main.ts"),
    "serve",
    "--config",
    config,
  ];
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

async function addedLatency(http: boolean): Promise<Record<string, number>> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolsift-bench-e2e-"));
  const config = path.join(dir, "gateway.json");
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { ev: { command: "node", args: [everything] } } }),
  );
  const direct = new Client({ name: "bench", version: "1" });
  const directTransport = new StdioClientTransport({ command: "node", args: [everything] });
  await direct.connect(directTransport);
  const { client: gateway, pid } = await spawnGateway(config, http);
  await waitForTool(gateway, "ev__echo");
  await timeCalls(direct, "echo", WARM_UP);
  await timeCalls(gateway, "ev__echo", WARM_UP);
  const directTimes: number[] = [];
  const gatewayTimes: number[] = [];
  // CPU of the gateway process over its calls, and of the upstream over the direct ones: what
  // the gateway costs per call on a machine too loaded for latency alone to show it
  let gatewayCpu = 0;
  let upstreamCpu = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const upstreamBefore = await cpuMs(directTransport.pid);
    directTimes.push(...(await timeCalls(direct, "echo", CALLS / ROUNDS)));
    upstreamCpu += (await cpuMs(directTransport.pid)) - upstreamBefore;
    const gatewayBefore = await cpuMs(pid);
    gatewayTimes.push(...(await timeCalls(gateway, "ev__echo", CALLS / ROUNDS)));
    gatewayCpu += (await cpuMs(pid)) - gatewayBefore;
  }
  await gateway.close();
  await direct.close();
  directTimes.sort((a, b) => a - b);
  gatewayTimes.sort((a, b) => a - b);
  const via = http ? "HTTP" : "stdio";
  const [d50, g50] = [quantile(directTimes, 0.5), quantile(gatewayTimes, 0.5)];
  const [d99, g99] = [quantile(directTimes, 0.99), quantile(gatewayTimes, 0.99)];
  return {
    [`e2e ${via}: direct p50 (ms)`]: d50,
    [`e2e ${via}: gateway p50 (ms)`]: g50,
    [`e2e ${via}: added p50 (ms)`]: g50 - d50,
    [`e2e ${via}: gateway/direct p50`]: g50 / d50,
    [`e2e ${via}: direct p99 (ms)`]: d99,
    [`e2e ${via}: gateway p99 (ms)`]: g99,
    [`e2e ${via}: added p99 (ms)`]: g99 - d99,
    [`e2e ${via}: gateway CPU per call (ms)`]: gatewayCpu / CALLS,
    [`e2e ${via}: upstream CPU per direct call (ms)`]: upstreamCpu / CALLS,
    [`e2e ${via}: gateway CPU / upstream CPU`]: gatewayCpu / upstreamCpu,
  };
}

/** Added latency per `tools/call` through the real CLI, over stdio and over HTTP. */
export async function gatewayEndToEnd(): Promise<Record<string, number>> {
  return { ...(await addedLatency(false)), ...(await addedLatency(true)) };
}
