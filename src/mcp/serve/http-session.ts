/** `HttpSession`: one client session the HTTP gateway holds in this process (replicas adopt
 * others' sessions as these too). */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { SessionProfile } from "../auth/user-profiles.js";
import type { GatewayHTTPTransport } from "./gateway-http-transport.js";

/** One client session held by this process. */
export interface HttpSession {
  server: Server;
  transport: GatewayHTTPTransport;
  /** When its last request started (`Date.now()`). */
  seen: number;
  /** Requests other than a GET stream still being answered: a long call is not idleness. */
  active: number;
  /** The client's standalone (GET) streams open on this process. */
  streams: number;
  /** The subject of the token that opened it (`auth`); only that subject may use it. */
  user?: string | undefined;
  /** The policy profile its user's claims chose when it opened (`auth.profiles`). */
  profile?: SessionProfile | undefined;
}
