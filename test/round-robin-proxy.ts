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
  /** Every request so far, in order: its method and the target it went to. */
  routed: { method: string; target: string }[];
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port; `targets()` lists the live replicas' `/mcp` URLs
 * (read per request, so a stopped replica drops out). */
export async function startRoundRobinProxy(
  targets: () => readonly string[],
): Promise<RoundRobinProxy> {
  let next = 0;
  const served = new Map<string, number>();
  const routed: RoundRobinProxy["routed"] = [];
  const proxy = createServer((request, response) => {
    const live = targets();
    const target = live[next++ % live.length] as string;
    served.set(target, (served.get(target) ?? 0) + 1);
    routed.push({ method: request.method ?? "", target });
    const url = new URL(target);
    const upstream = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: request.url,
        method: request.method,
        headers: { ...request.headers, host: url.host },
        // a connection per request, as nginx's default: a kept-alive one could be closed by the
        // target (idle past its keep-alive timeout) just as a request is written to it, which
        // the load test saw as a lost call ("socket hang up" before any answer)
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        // a target that dies mid-answer breaks the client's connection too, as a balancer does
        answer.once("close", () => {
          if (!answer.complete) response.destroy();
        });
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
    routed,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
