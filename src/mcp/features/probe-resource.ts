/**
 * Finds the upstream that has a resource URI nobody listed and no template matches, by asking
 * the servers that offer resources to read it: a few at a time, each within a time limit, the
 * first that answers wins and the rest are cancelled.
 */
import { ErrorCode, ReadResourceResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import type { UpstreamServer } from "../upstream/upstream-server.js";
import { clientError, withoutSDKPrefix } from "./client-error.js";

/** Servers asked at once; each probe is a `resources/read` the server answers itself. */
export const PROBE_CONCURRENCY = 4;
/** Milliseconds one server gets to answer a probe before it counts as not having the URI. */
export const PROBE_TIMEOUT_MS = 10_000;
/** Characters of each server's refusal kept in the error (a server may explain at length). */
const REASON_CHARS = 200;

/** The server that read the URI, and what it read. */
export interface ProbedResource {
  server: UpstreamServer;
  result: Record<string, unknown>;
}

/** Reads `uri` from `candidates` (config order), first success wins; throws an InvalidParams
 * error naming the URI and every server asked, with its answer, when none has it. */
export async function probeResource(
  uri: string,
  candidates: readonly UpstreamServer[],
  options: { signal?: AbortSignal; relay?: ClientRelay } = {},
): Promise<ProbedResource> {
  if (candidates.length === 0) {
    throw clientError(
      ErrorCode.InvalidParams,
      `No upstream server offers resources, so "${uri}" cannot be read; check that the server that has it is up (toolsift serve logs why it is not).`,
    );
  }
  const found = new AbortController();
  const failures = new Map<string, string>();
  let winner: ProbedResource | undefined;
  let next = 0;
  const worker = async () => {
    while (winner === undefined && next < candidates.length) {
      const server = candidates[next++] as UpstreamServer;
      const signals = [found.signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)];
      if (options.signal) signals.push(options.signal);
      try {
        const result = await server.request(
          { method: "resources/read", params: { uri } },
          ReadResourceResultSchema,
          { ...options, signal: AbortSignal.any(signals) },
        );
        if (winner === undefined) {
          winner = { server, result };
          found.abort();
        }
      } catch (error) {
        failures.set(server.name, reasonOf(error));
      }
    }
  };
  const workers = Math.min(PROBE_CONCURRENCY, candidates.length);
  await Promise.all(Array.from({ length: workers }, worker));
  if (winner) return winner;
  const asked = candidates
    .map((server) => `${server.name} (${failures.get(server.name) ?? "no answer"})`)
    .join(", ");
  throw clientError(
    ErrorCode.InvalidParams,
    `No upstream server has the resource "${uri}"; asked ${asked}. List resources (or templates) to see the URIs they offer.`,
  );
}

/** A server's refusal in one line, without the SDK's "MCP error -32602:" prefix. */
function reasonOf(error: unknown): string {
  const text = withoutSDKPrefix(error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, " ")
    .trim();
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}
