/**
 * Serving the gateway: over stdio (one client, one session) or streamable HTTP on `/mcp` (one
 * session per `Mcp-Session-Id`, http-gateway.ts), loopback-only by default, with an optional
 * bearer token and Host/Origin checks against DNS rebinding (http-gateway-options.ts).
 */
import { createServer } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolsiftError } from "../../errors.js";
import { boundClientReads } from "./bound-client-reads.js";
import { forwardUpstreamEvents } from "./forward-upstream-events.js";
import { createGatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
import { createHttpGateway } from "./http-gateway.js";
import { checkHttpOptions, type HttpGatewayOptions } from "./http-gateway-options.js";
import type { HttpLimits } from "./http-limits.js";
import { probe } from "./probes.js";
import { warmRelayChecks } from "./warm-relay.js";

/** A running gateway. */
export interface RunningGateway {
  /** `http://host:port/mcp` for HTTP; undefined for stdio. */
  url?: string;
  /** Resolves when the gateway stops (client gone or `close()`). */
  closed: Promise<void>;
  /** Stops serving and closes every session and upstream. */
  close(): Promise<void>;
}

/** A close function that runs `steps` once, however often it is called, and a promise that
 * resolves when they have run. */
function closeOnce(steps: () => Promise<void>): Pick<RunningGateway, "closed" | "close"> {
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= steps().finally(finish);
    return closing;
  };
  return { closed, close };
}

/** Serves one client over stdin/stdout; stops when stdin ends. Logs must go to stderr. */
export async function serveStdio(options: GatewaySessionOptions): Promise<RunningGateway> {
  const server = createGatewaySession("stdio", options);
  const transport = new StdioServerTransport();
  boundClientReads(transport);
  const stopAnnouncing = forwardUpstreamEvents(options, () => [{ server }]);
  let stopWarming: () => void = () => undefined;
  const { closed, close } = closeOnce(async () => {
    stopAnnouncing();
    stopWarming();
    process.stdin.off("end", onEnd);
    await server.close().catch(() => undefined);
    await options.sift.close();
  });
  const onEnd = () => void close();
  process.stdin.on("end", onEnd);
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    void close();
  };
  await server.connect(transport);
  if (options.warmUp !== false) stopWarming = warmRelayChecks().stop;
  return { closed, close };
}

/** Options of `serveHttp`. */
export interface ServeHttpOptions extends HttpGatewayOptions {
  /** Default 0 (any free port; read it from `url`). */
  port?: number;
  /** On close, how long calls in flight may take to finish before they are cut (ms); default
   * 10,000. */
  drainMs?: number;
}

function addressInUse(host: string, port: number, cause: unknown): ToolsiftError {
  return new ToolsiftError(
    "invalid_option",
    `Cannot listen on ${host}:${port}: ${host}:${port} is in use. Stop the program holding it (e.g. an earlier gateway), or pick another port (toolsift serve --http ${host}:0 takes any free one).`,
    { cause },
  );
}

/** Checks what `serveHttp` would refuse (a non-loopback host without a token, a bad limit, a
 * port in use) without starting anything, so a command can report it before its upstreams
 * start. The port is bound and released at once. */
export async function checkHttpListen(
  options: Pick<ServeHttpOptions, "host" | "port" | "token" | "auth"> & HttpLimits,
): Promise<void> {
  checkHttpOptions(options);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? addressInUse(host, port, error) : error),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Serves streamable HTTP on `http://HOST:PORT/mcp`, one ToolSift session per MCP session. */
export async function serveHttp(options: ServeHttpOptions): Promise<RunningGateway> {
  const gateway = createHttpGateway(options);
  const http = createServer((request, response) => {
    if (probe(request, response, options)) return;
    void gateway.handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    const host = options.host ?? "127.0.0.1";
    http.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? addressInUse(host, options.port ?? 0, error) : error),
    );
    http.listen(options.port ?? 0, host, () => resolve());
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw error;
  });
  const address = http.address() as AddressInfo;
  const stopWarming = options.warmUp === false ? () => undefined : warmRelayChecks().stop;
  const { closed, close } = closeOnce(async () => {
    // graceful: no new connections, then calls in flight get up to drainMs to finish
    stopWarming();
    http.close();
    const deadline = Date.now() + (options.drainMs ?? 10_000);
    while (gateway.inFlight() > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await gateway.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await options.sift.close();
  });
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}/mcp`, closed, close };
}
