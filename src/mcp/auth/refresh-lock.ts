/**
 * One refresh at a time per login, across every gateway sharing the token store. The SDK refreshes
 * inside its own `auth()`, through the transport's `fetch`; this wraps that `fetch`. A refresh
 * request waits for the login's lock, then reads the store again: when another replica refreshed
 * meanwhile, its tokens answer (as the token endpoint would have) and no request is sent, so a
 * refresh token already spent (revoked by rotation) is never sent and never stored. Otherwise the
 * request goes out, and its tokens are stored before the lock is released.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { StoredLogin } from "./token-store.js";

/** What the wrapper needs from its login. */
export interface RefreshLockParts {
  /** The stored login, read again (never a cached copy). */
  read: () => Promise<StoredLogin | undefined>;
  /** Stores the tokens a refresh returned. */
  save: (tokens: Record<string, unknown>) => Promise<void>;
  /** Takes the login's lock; resolves to its release. */
  lock: () => Promise<() => Promise<void>>;
  /** Hears the refresh token that was sent, so a refusal drops only that one. */
  sent: (refreshToken: string) => void;
}

/** An access token closer to its expiry than this is refreshed rather than taken over. */
const FRESH_MARGIN_MS = 5_000;

function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if (init?.method !== "POST" || !(body instanceof URLSearchParams)) return undefined;
  if (body.get("grant_type") !== "refresh_token") return undefined;
  return body.get("refresh_token") ?? undefined;
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** The token endpoint's answer for tokens another replica got (`issuer` is the SDK's own). */
function tokenAnswer(login: StoredLogin): Response {
  const { issuer: _, expires_in: __, ...tokens } = login.tokens ?? {};
  const left = login.expiresAt === undefined ? undefined : login.expiresAt - Date.now();
  return answer(200, {
    ...tokens,
    ...(left !== undefined ? { expires_in: Math.max(0, Math.floor(left / 1000)) } : {}),
  });
}

/** `base` with refreshes serialised per login through `parts`. */
export function lockedRefreshFetch(parts: RefreshLockParts, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const presented = refreshTokenOf(init);
    if (presented === undefined) return base(url, init);
    const release = await parts.lock();
    try {
      const login = await parts.read();
      const tokens = login?.tokens;
      // logged out elsewhere: what the server says of a revoked token, so no login is invented
      if (login === undefined || tokens === undefined) {
        return answer(400, { error: "invalid_grant", error_description: "no stored login" });
      }
      const stored = typeof tokens.refresh_token === "string" ? tokens.refresh_token : undefined;
      const fresh = login.expiresAt === undefined || login.expiresAt > Date.now() + FRESH_MARGIN_MS;
      // another replica refreshed (or logged in) while this one waited: take its tokens over
      if (stored !== presented && fresh) return tokenAnswer(login);
      if (stored === undefined) {
        return answer(400, { error: "invalid_grant", error_description: "no refresh token" });
      }
      const body = new URLSearchParams(init?.body as URLSearchParams);
      body.set("refresh_token", stored);
      parts.sent(stored);
      const response = await base(url, { ...init, body });
      if (response.ok) {
        const refreshed = (await response
          .clone()
          .json()
          .catch(() => undefined)) as Record<string, unknown> | undefined;
        if (typeof refreshed?.access_token === "string") {
          // the server may keep the refresh token: then the one sent stays valid
          const issuer = tokens.issuer;
          await parts.save({ refresh_token: stored, ...refreshed, ...(issuer ? { issuer } : {}) });
        }
      }
      return response;
    } finally {
      await release().catch(() => undefined);
    }
  };
}

/** Held refresh locks of this process, by login key: the lock of a store that has none. */
const localLocks = new Map<string, Promise<void>>();

export async function localLock(key: string): Promise<() => Promise<void>> {
  const previous = localLocks.get(key) ?? Promise.resolve();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const chained = previous.then(() => held);
  localLocks.set(key, chained);
  await previous;
  return async () => {
    release();
    if (localLocks.get(key) === chained) localLocks.delete(key);
  };
}
