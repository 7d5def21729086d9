/**
 * The gateway as an OAuth resource server (MCP authorization spec, 2025-06-18 and 2025-11-25):
 * every request to `/mcp` needs a JWT access token from the configured issuer, for the configured
 * audience, with the configured scopes. The RFC 9728 metadata document tells MCP clients where to
 * log in; a missing or bad token gets 401 with `WWW-Authenticate: Bearer resource_metadata=…`,
 * too few scopes 403 `insufficient_scope`. The token is only read here: it never reaches an
 * upstream, a log or the inspector.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ToolsiftError } from "../../errors.js";
import {
  discoverIssuerKeys,
  type IssuerKeys,
  type Jose,
  loadJose,
  parseIssuer,
} from "./issuer-keys.js";
import { chooseUserProfile, type SessionProfile, type UserProfileRule } from "./user-profiles.js";

/** The identity provider that protects an HTTP gateway (`--auth-issuer`, the config's `auth`). */
export interface GatewayAuthOptions {
  /** The issuer identifier, exactly as its discovery document and its tokens' `iss` spell it. */
  issuer: string;
  /** The `aud` every token must carry (RFC 8707): best the gateway's public URL, e.g.
   * `https://mcp.example.com/mcp`, which is what MCP clients ask the issuer for. */
  audience: string;
  /** Scopes every token must hold (from `scope` or `scp`); default none. */
  scopes?: readonly string[];
  /** The gateway's public `/mcp` URL, named as `resource` in the metadata document. Default: the
   * audience when it is an http(s) URL, else this request's `Host` (and `X-Forwarded-Proto`). */
  resource?: string;
  /** After a token names a key id the issuer's JWKS lacks, how long before another such token
   * may fetch the JWKS again (ms); default 30,000. Rotated keys are found at once otherwise. */
  keyCooldownMs?: number;
  /** The policy profile of each session by its token's claims: the first rule that matches
   * (`docs/auth.md`); default `defaultProfile`, else the gateway's policy alone. */
  profiles?: readonly UserProfileRule[];
  /** The profile of a session no rule in `profiles` matches. */
  defaultProfile?: string;
}

/** Who sent a request that passed the guard: the token's `sub`, and the profile its claims
 * choose (with `profiles` or `defaultProfile`). */
export interface Caller {
  subject?: string | undefined;
  profile?: SessionProfile | undefined;
}

/** Checks one request; see `createBearerGuard`. */
export interface BearerGuard {
  /** Answers the metadata document, or a refusal, and returns undefined; otherwise returns the
   * caller, and the request goes on (paths other than `/mcp` pass with no subject). */
  admit(request: IncomingMessage, response: ServerResponse): Promise<Caller | undefined>;
}

const METADATA_PATH = "/.well-known/oauth-protected-resource";
/** Asymmetric signatures only: a JWKS holds public keys, and `none` or an HMAC is never a proof. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"];
const ALGORITHMS_MORE = ["ES512", "EdDSA", "Ed25519"];

/** jose's codes for a token that is wrong (401), as opposed to a provider that did not answer. */
const TOKEN_FAULTS: Record<string, string> = {
  ERR_JWT_EXPIRED: "the token has expired",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the signature does not verify with the issuer's keys",
  ERR_JWKS_NO_MATCHING_KEY: "the token is signed with a key the issuer does not publish",
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: "the signature does not verify with the issuer's keys",
  ERR_JOSE_ALG_NOT_ALLOWED: "the token's signing algorithm is not accepted",
  ERR_JWS_INVALID: "the token is not a signed JWT",
  ERR_JWT_INVALID: "the token is not a valid JWT",
  ERR_JOSE_NOT_SUPPORTED: "the token's signing algorithm is not supported",
};

function tokenFault(error: unknown): string | undefined {
  const { code, claim, reason } = error as { code?: string; claim?: string; reason?: string };
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") {
    return `the token's ${claim ?? "claims"} claim is ${reason === "missing" ? "missing" : "not the one required"}`;
  }
  return code === undefined ? undefined : TOKEN_FAULTS[code];
}

/** The scopes a token holds: `scope` (space-separated, RFC 9068) or `scp` (string or list). */
function grantedScopes(payload: Record<string, unknown>): Set<string> {
  const raw = payload.scope ?? payload.scp;
  const list = typeof raw === "string" ? raw.split(" ") : Array.isArray(raw) ? raw : [];
  return new Set(list.filter((item): item is string => typeof item === "string" && item !== ""));
}

const optionalCooldown = (options: GatewayAuthOptions) =>
  options.keyCooldownMs === undefined ? {} : { cooldownMs: options.keyCooldownMs };

function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** The gateway's resource URL as this request reached it; undefined when its Host is unusable. */
function resourceOf(options: GatewayAuthOptions, request: IncomingMessage): URL | undefined {
  const configured =
    options.resource ?? (isHttpUrl(options.audience) ? options.audience : undefined);
  const forwarded = String(request.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  const scheme = forwarded === "https" ? "https" : "http";
  try {
    return new URL(configured ?? `${scheme}://${request.headers.host ?? ""}/mcp`);
  } catch {
    return undefined;
  }
}

/** RFC 9728 §3.1: the well-known part goes between the host and the resource's path. */
function metadataUrlOf(resource: URL): string {
  const path = resource.pathname === "/" ? "" : resource.pathname.replace(/\/$/, "");
  return `${resource.origin}${METADATA_PATH}${path}`;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** A JSON-RPC error body with a `WWW-Authenticate` challenge (RFC 6750 §3). */
function refuse(
  response: ServerResponse,
  status: 401 | 403,
  challenge: Record<string, string | undefined>,
  message: string,
): void {
  const parts = Object.entries(challenge)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    // quoted-string values: the words here never hold a quote or a backslash
    .map(([key, value]) => `${key}="${value.replace(/["\\]/g, "")}"`);
  sendJson(
    response,
    status,
    { jsonrpc: "2.0", error: { code: -32001, message }, id: null },
    { "www-authenticate": `Bearer ${parts.join(", ")}` },
  );
}

/** A token checked: its claims, what is wrong with it (401), or why it could not be checked
 * (503: the provider's metadata or keys did not answer). */
type Verified = { payload: Record<string, unknown> } | { fault: string } | { unavailable: string };

async function verifyToken(
  token: string,
  load: () => Promise<{ jose: Jose; keys: IssuerKeys }>,
  audience: string,
): Promise<Verified> {
  let loaded: { jose: Jose; keys: IssuerKeys };
  try {
    loaded = await load();
  } catch (error) {
    return { unavailable: (error as Error).message };
  }
  const { jose, keys } = loaded;
  try {
    const { payload } = await jose.jwtVerify(token, keys.keys, {
      issuer: keys.issuer,
      audience,
      algorithms: [...ALGORITHMS, ...ALGORITHMS_MORE],
      requiredClaims: ["sub", "exp"],
      clockTolerance: 10,
    });
    return { payload };
  } catch (error) {
    const fault = tokenFault(error);
    if (fault !== undefined) return { fault };
    return {
      unavailable: `The identity provider's keys (${keys.jwksUri}) could not be read: ${(error as Error).message}. Try again.`,
    };
  }
}

/** RFC 6749 §3.3: a scope is printable ASCII without space, `"` or `\`. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Throws naming the first unusable setting: the issuer URL, an empty audience, a bad scope or
 * resource. */
function checkAuthOptions(options: GatewayAuthOptions): void {
  parseIssuer(options.issuer);
  if (options.audience.trim() === "") {
    throw new ToolsiftError(
      "invalid_option",
      "--auth-audience is empty; pass the aud the identity provider puts in tokens for this gateway (best its public URL, e.g. https://mcp.example.com/mcp).",
    );
  }
  const bad = (options.scopes ?? []).find((scope) => !SCOPE.test(scope));
  if (bad !== undefined) {
    throw new ToolsiftError(
      "invalid_option",
      `--auth-scopes: ${JSON.stringify(bad)} is not a scope (printable characters, no spaces or quotes); separate scopes with commas.`,
    );
  }
  if (options.resource !== undefined && !isHttpUrl(options.resource)) {
    throw new ToolsiftError(
      "invalid_option",
      `auth.resource "${options.resource}" must be the gateway's public http(s) URL of /mcp.`,
    );
  }
}

/** Checks, before a gateway starts, what its guard will need: usable settings, `jose`
 * installed, and the issuer's discovery document with a `jwks_uri`. Throws naming the problem. */
export async function checkGatewayAuth(options: GatewayAuthOptions): Promise<void> {
  checkAuthOptions(options);
  await discoverIssuerKeys(options.issuer, { timeoutMs: 10_000 });
}

/** Answers the RFC 9728 document for the gateway. */
function serveMetadata(
  options: GatewayAuthOptions,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const resource = resourceOf(options, request);
  if (!resource) {
    sendJson(response, 400, { error: "invalid_request" });
    return;
  }
  const scopes = options.scopes ?? [];
  sendJson(
    response,
    200,
    {
      resource: resource.href,
      authorization_servers: [options.issuer],
      bearer_methods_supported: ["header"],
      ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
      resource_name: "toolsift gateway",
    },
    // MCP clients in a browser read it from another origin
    { "access-control-allow-origin": "*" },
  );
}

/** The guard for `options`; the issuer's metadata and keys are fetched on the first request (a
 * failure is answered 503 and tried again on the next), `jose` is loaded then too. */
export function createBearerGuard(options: GatewayAuthOptions): BearerGuard {
  checkAuthOptions(options);
  const required = [...(options.scopes ?? [])];
  let loading: Promise<{ jose: Jose; keys: IssuerKeys }> | undefined;
  const verifier = () => {
    loading ??= Promise.all([
      loadJose(),
      discoverIssuerKeys(options.issuer, optionalCooldown(options)),
    ]).then(([jose, keys]) => ({ jose, keys }));
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };

  const admit = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === METADATA_PATH || path === `${METADATA_PATH}/mcp`) {
      serveMetadata(options, request, response);
      return undefined;
    }
    if (path !== "/mcp") return {};
    const resource = resourceOf(options, request);
    if (!resource) {
      sendJson(response, 400, { error: "invalid_request", error_description: "bad Host header" });
      return undefined;
    }
    const challenge = {
      resource_metadata: metadataUrlOf(resource),
      scope: required.length > 0 ? required.join(" ") : undefined,
    };
    const token = /^Bearer +([^\s]+) *$/i.exec(request.headers.authorization ?? "")?.[1];
    if (token === undefined) {
      refuse(
        response,
        401,
        challenge,
        "This gateway needs a bearer token from its identity provider; see the resource_metadata document named in WWW-Authenticate.",
      );
      return undefined;
    }
    const verified = await verifyToken(token, verifier, options.audience);
    if ("unavailable" in verified) {
      const body = { code: -32000, message: verified.unavailable };
      sendJson(response, 503, { jsonrpc: "2.0", error: body, id: null });
      return undefined;
    }
    if ("fault" in verified) {
      const { fault } = verified;
      const refusal = { ...challenge, error: "invalid_token", error_description: fault };
      refuse(response, 401, refusal, `Bearer token refused: ${fault}.`);
      return undefined;
    }
    const { payload } = verified;
    const granted = grantedScopes(payload);
    const missing = required.filter((scope) => !granted.has(scope));
    if (missing.length > 0) {
      refuse(
        response,
        403,
        {
          ...challenge,
          error: "insufficient_scope",
          error_description: `missing scope ${missing.join(" ")}`,
        },
        `The token lacks the scope ${missing.join(" ")}; log in again asking for ${required.join(" ")}.`,
      );
      return undefined;
    }
    const profile = chooseUserProfile(payload, options.profiles, options.defaultProfile);
    return { subject: payload.sub as string, ...(profile ? { profile } : {}) };
  };

  return { admit };
}
