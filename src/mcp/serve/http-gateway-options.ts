/**
 * The options of an HTTP gateway and who they let in: a non-loopback host needs a token or an
 * identity provider (checked before anything starts), and on loopback each request's Host and
 * Origin must be loopback too, against DNS rebinding.
 */
import type { IncomingMessage } from "node:http";
import { ToolsiftError } from "../../errors.js";
import type { GatewayAuthOptions } from "../auth/bearer-guard.js";
import type { ReplicaState } from "../state/replica-gateway.js";
import type { GatewaySessionOptions } from "./gateway-session.js";
import { type HttpLimits, resolveHttpLimits } from "./http-limits.js";

/** Options of `createHttpGateway` (and, with a port, of `serveHttp`); the limits default to
 * `HTTP_LIMIT_DEFAULTS` (4 MiB bodies, 100 sessions, 30 minutes idle). */
export interface HttpGatewayOptions extends GatewaySessionOptions, HttpLimits {
  /** Where the listener is bound; default `127.0.0.1`. Loopback turns on the DNS-rebinding
   * checks; any other address needs `token`. */
  host?: string;
  /** Required as `Authorization: Bearer TOKEN` on every request when set. */
  token?: string;
  /** An identity provider whose JWT access tokens every request needs (`docs/auth.md`); each
   * session belongs to its token's subject. Not with `token`. */
  auth?: GatewayAuthOptions;
  /** State shared with other replicas (`--state redis://…`); pass `state.reveals.revealStore`
   * as the sift's `disclosure.store`. Without it sessions live in this process only. */
  state?: ReplicaState;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function hostOf(header: string): string {
  // "[::1]:8080" → "[::1]", "localhost:8080" → "localhost"
  return header.startsWith("[")
    ? header.slice(0, header.indexOf("]") + 1)
    : (header.split(":")[0] ?? "");
}

/** Why a request must be refused for its Host, Origin or token (status and message), or
 * undefined when it may proceed. */
export function httpRefusal(
  request: IncomingMessage,
  options: HttpGatewayOptions,
  loopback: boolean,
): [number, string] | undefined {
  if (loopback) {
    // DNS rebinding: a web page may reach 127.0.0.1 under a foreign host name
    const host = hostOf(request.headers.host ?? "");
    if (!LOOPBACK.has(host)) {
      return [403, `Host "${request.headers.host}" is not allowed; use localhost or 127.0.0.1.`];
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      let originHost = "";
      try {
        originHost = new URL(origin).hostname;
      } catch {
        // an unparsable Origin is refused below
      }
      if (!LOOPBACK.has(originHost)) return [403, `Origin "${origin}" is not allowed.`];
    }
  }
  if (options.token !== undefined && request.headers.authorization !== `Bearer ${options.token}`) {
    return [401, "Missing or wrong bearer token; send Authorization: Bearer TOKEN."];
  }
  return undefined;
}

/** Throws when the host needs a token it was not given, or a limit is not a positive whole
 * number; returns whether the host is loopback. */
export function checkHttpOptions(
  options: Pick<HttpGatewayOptions, "host" | "token" | "auth"> & HttpLimits,
) {
  const host = options.host ?? "127.0.0.1";
  if (options.token !== undefined && options.auth !== undefined) {
    throw new ToolsiftError(
      "invalid_option",
      "Pass one of a shared token (--token, --token-file, TOOLSIFT_TOKEN) and an identity provider (--auth-issuer), not both.",
    );
  }
  if (!LOOPBACK.has(host) && options.token === undefined && options.auth === undefined) {
    throw new ToolsiftError(
      "invalid_option",
      `Serving on ${host} exposes every upstream tool to the network; pass a token (--token-file F, TOOLSIFT_TOKEN or --token), an identity provider (--auth-issuer URL --auth-audience AUD) or serve on 127.0.0.1.`,
    );
  }
  return { loopback: LOOPBACK.has(host), limits: resolveHttpLimits(options) };
}
