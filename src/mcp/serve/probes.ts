/**
 * The HTTP gateway's probes for an orchestrator or load balancer: `GET /healthz` (liveness:
 * 200 while the process serves) and `GET /readyz` (readiness: 200 when at least one upstream can
 * serve its tools and the shared store answers, 503 with the reasons otherwise). Neither needs the token:
 * they say nothing about tools or sessions.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MCPToolSift } from "../create-mcp-toolsift.js";
import type { SessionStore } from "../state/session-store.js";

/** What the probes read of the gateway's options. */
export interface ProbeOptions {
  sift: Pick<MCPToolSift, "upstreams">;
  state?: { store: Pick<SessionStore, "ping"> };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * The states whose tools a session can find and call now: up, lazy with a known catalog, or
 * coming back with its listed tools kept. A server still on its first start is not among them: a
 * replica whose servers are all starting would answer every search with nothing.
 */
const SERVING = new Set<string>(["ready", "idle", "restarting"]);

/** Why this replica should not get traffic now; empty when it is ready. */
export async function readinessProblems(options: ProbeOptions): Promise<string[]> {
  const problems: string[] = [];
  const upstreams = options.sift.upstreams.status();
  const usable = upstreams.filter((each) => SERVING.has(each.state));
  if (upstreams.length > 0 && usable.length === 0) {
    problems.push(
      `no upstream is up: ${upstreams.map((each) => `${each.server} (${each.error ?? each.state})`).join(", ")}`,
    );
  }
  await options.state?.store.ping().catch((error: unknown) => {
    problems.push((error as Error).message);
  });
  return problems;
}

/** Answers `/healthz` and `/readyz`; returns false for every other request. */
export function probe(
  request: IncomingMessage,
  response: ServerResponse,
  options: ProbeOptions,
): boolean {
  const path = new URL(request.url ?? "/", "http://localhost").pathname;
  if (request.method !== "GET" || (path !== "/healthz" && path !== "/readyz")) return false;
  if (path === "/healthz") {
    json(response, 200, { status: "ok" });
    return true;
  }
  void readinessProblems(options).then((problems) =>
    json(response, problems.length === 0 ? 200 : 503, {
      status: problems.length === 0 ? "ready" : "not_ready",
      problems,
    }),
  );
  return true;
}
