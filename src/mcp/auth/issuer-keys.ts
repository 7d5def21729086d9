/**
 * The signing keys of the identity provider that protects the gateway: `jose` (an optional peer,
 * loaded only when an issuer is configured), the issuer's RFC 8414 or OpenID discovery document,
 * and its JWKS, which jose caches and fetches again when a token names a key it does not hold
 * (key rotation).
 */
import { ToolsiftError } from "../../errors.js";

/** The parts of `jose` the gateway uses. */
export type Jose = typeof import("jose");

/** Loads `jose`, or throws naming the package to install. */
export async function loadJose(): Promise<Jose> {
  try {
    return await import("jose");
  } catch (cause) {
    throw new ToolsiftError(
      "invalid_option",
      '--auth-issuer (or the config\'s "auth" block) needs the "jose" package to check tokens, which is not installed; run npm install jose@^6 (or drop --auth-issuer).',
      { cause },
    );
  }
}

/** An issuer's keys as jose verifies with them, and its identifier as its metadata spells it. */
export interface IssuerKeys {
  issuer: string;
  jwksUri: string;
  keys: ReturnType<Jose["createRemoteJWKSet"]>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The discovery document URLs to try, in the order the MCP authorization spec gives: RFC 8414
 * with the issuer's path after the well-known part, then OpenID Connect both ways. */
function metadataUrls(issuer: URL): string[] {
  const path = issuer.pathname.replace(/\/$/, "");
  const origin = issuer.origin;
  if (path === "") {
    return [
      `${origin}/.well-known/oauth-authorization-server`,
      `${origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Checks the issuer URL: https, or http on a loopback address (a local identity provider). */
export function parseIssuer(issuer: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ToolsiftError(
      "invalid_option",
      `--auth-issuer "${issuer}" is not a URL; pass the identity provider's issuer, e.g. https://login.example.com/.`,
    );
  }
  const local = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (url.protocol !== "https:" && !local) {
    throw new ToolsiftError(
      "invalid_option",
      `--auth-issuer "${issuer}" must use https (plain http only on a loopback address).`,
    );
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "") {
    throw new ToolsiftError(
      "invalid_option",
      `--auth-issuer "${url.origin}${url.pathname}" must not carry a query, fragment or user name.`,
    );
  }
  return url;
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) return undefined;
  return response.json().catch(() => undefined);
}

/** Finds `issuer`'s JWKS from its discovery document and returns its keys. Throws naming the
 * documents tried when none answers, or when the document names another issuer (RFC 8414 §3.3). */
export async function discoverIssuerKeys(
  issuer: string,
  options: { timeoutMs?: number; cooldownMs?: number } = {},
): Promise<IssuerKeys> {
  const url = parseIssuer(issuer);
  const jose = await loadJose();
  const tried = metadataUrls(url);
  for (const candidate of tried) {
    const document = (await fetchJson(candidate, options.timeoutMs ?? 10_000).catch(
      () => undefined,
    )) as { issuer?: unknown; jwks_uri?: unknown } | undefined;
    if (document === undefined || typeof document !== "object" || document === null) continue;
    if (document.issuer !== issuer) {
      throw new ToolsiftError(
        "invalid_option",
        `The identity provider's metadata (${candidate}) names the issuer ${JSON.stringify(document.issuer)}, not "${issuer}"; pass --auth-issuer exactly as it spells it.`,
      );
    }
    if (typeof document.jwks_uri !== "string") {
      throw new ToolsiftError(
        "invalid_option",
        `The identity provider's metadata (${candidate}) has no jwks_uri, so its tokens cannot be checked.`,
      );
    }
    const jwksUri = document.jwks_uri;
    // a new key id is looked up at once, but at most every 30 s (a stream of forged kids must
    // not become a stream of requests to the provider)
    const keys = jose.createRemoteJWKSet(new URL(jwksUri), {
      cooldownDuration: options.cooldownMs ?? 30_000,
      cacheMaxAge: 10 * 60_000,
      timeoutDuration: options.timeoutMs ?? 10_000,
    });
    return { issuer, jwksUri, keys };
  }
  throw new ToolsiftError(
    "invalid_option",
    `Cannot read the identity provider's metadata for ${issuer}: none of ${tried.join(", ")} answered with JSON. Check --auth-issuer and that the provider is reachable.`,
  );
}
