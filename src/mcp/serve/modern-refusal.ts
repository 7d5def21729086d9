/**
 * The gateway serves MCP 2025-11-25 and older. A client of the 2026-07-28 era opens with
 * `server/discover` or a request carrying the protocol version in `_meta`, without
 * `initialize`; it is answered with the spec's unsupported-version error (-32022) listing the
 * versions the gateway speaks, so a dual-era client falls back to `initialize` and a modern-only
 * one fails saying why, instead of reading "no session".
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** The JSON-RPC error for a sessionless request of a later era, or undefined for any other. */
export function modernRefusal(
  body: unknown,
  header: string | string[] | undefined,
): Record<string, unknown> | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { id, method, params } = body as { id?: unknown; method?: unknown; params?: unknown };
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const claimed = meta?.[VERSION_KEY] ?? (typeof header === "string" ? header : undefined);
  const requested = typeof claimed === "string" ? claimed : undefined;
  const later = requested !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(requested);
  if (method !== "server/discover" && !later) return undefined;
  return {
    jsonrpc: "2.0",
    id: typeof id === "string" || typeof id === "number" ? id : null,
    error: {
      code: -32022,
      message: `Unsupported protocol version${requested ? ` ${requested}` : ""}: the toolsift gateway speaks MCP ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}. Connect with the initialize handshake (a v2 client does with versionNegotiation mode "auto").`,
      data: { supported: SUPPORTED_PROTOCOL_VERSIONS, ...(requested ? { requested } : {}) },
    },
  };
}
