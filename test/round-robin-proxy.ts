/**
 * A load balancer of a few lines for the replica tests: round robin over the targets that are
 * live, one request each, with no affinity of any kind (no sticky sessions).
 */
import { createServer, request as httpRequest } from "node:http";

export interface RoundRobinProxy {
  /** The proxy's `/mcp` URL. */
  url: string;
  /** Requests sent to each target so far, by target URL. */
  served: Map<string, number>;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port; `targets()` lists the live replicas' `/mcp` URLs
 * (read per request, so a stopped replica drops out). */
export async function startRoundRobinProxy(
  targets: () => readonly string[],
): Promise<RoundRobinProxy> {
  let next = 0;
  const served = new Map<string, number>();
  const proxy = createServer((request, response) => {
    const live = targets();
    const target = live[next++ % live.length] as string;
    served.set(target, (served.get(target) ?? 0) + 1);
    const url = new URL(target);
    const upstream = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: url.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () =>
      response.headersSent ? response.destroy() : response.writeHead(502).end(),
    );
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
  const { port } = proxy.address() as { port: number };
  return {
    url: `http://localhost:${port}/mcp`,
    served,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
