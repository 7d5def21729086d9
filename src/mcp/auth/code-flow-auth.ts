/**
 * The authorization-code flow for one HTTP upstream (`docs/auth.md`): the logins kept in the token
 * store, the SDK's `OAuthClientProvider` built over them, and what a redirect means. In the gateway
 * (passive) a redirect means the user must log in, so it fails with `NeedsLoginError`; in a login
 * (interactive) it opens the browser and waits on the loopback listener for the code.
 */
import { randomBytes } from "node:crypto";
import {
  auth,
  type OAuthClientProvider,
  UnauthorizedError,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { UpstreamAuth, UpstreamAuthConfig } from "../types.js";
import { type LoopbackRedirect, startLoopbackRedirect } from "./loopback-redirect.js";
import { findNeedsLogin, NeedsLoginError } from "./needs-login.js";
import { localLock, lockedRefreshFetch } from "./refresh-lock.js";
import { loginKey, type StoredLogin, type TokenStore } from "./token-store.js";

export interface CodeFlowOptions {
  server: string;
  url: string;
  settings: UpstreamAuthConfig;
  store: TokenStore;
  loginCommand: string;
  openUrl?: (url: URL, server: string) => void | Promise<void>;
}

const PASSIVE_REDIRECT = "http://127.0.0.1/callback";

/** What one code flow knows between the SDK's calls to its provider. */
interface CodeFlow {
  readonly flow: CodeFlowOptions;
  cached: Promise<StoredLogin> | undefined;
  listener: LoopbackRedirect | undefined;
  stored: StoredLogin;
  verifier: string | undefined;
  state: string | undefined;
  pending: Promise<string> | undefined;
  /** The refresh token this flow last sent or handed to the SDK: a refusal drops only it. */
  refreshToken: string | undefined;
}

/** The stored login of the flow's server (read once until a save or a change on disk). */
function loadLogin(cf: CodeFlow): Promise<StoredLogin> {
  const { store, server, url } = cf.flow;
  cf.cached ??= store.get(server, url).then((login) => login ?? { server, url });
  return cf.cached;
}

async function saveLogin(cf: CodeFlow, change: (login: StoredLogin) => StoredLogin) {
  await cf.flow.store.update(cf.flow.server, cf.flow.url, change);
  cf.cached = undefined;
}

const needsLoginOf = (cf: CodeFlow) => new NeedsLoginError(cf.flow.server, cf.flow.loginCommand);

function clientMetadataOf(settings: UpstreamAuthConfig, redirectUrl: string): OAuthClientMetadata {
  return {
    client_name: settings.clientName ?? "toolsift",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: settings.clientSecret ? "client_secret_basic" : "none",
    ...(settings.scope ? { scope: settings.scope } : {}),
  };
}

/** The provider's client and token methods: the store, or a pre-registered client. */
function clientMethods(cf: CodeFlow, redirectUrl: () => string) {
  const { settings } = cf.flow;
  return {
    async clientInformation() {
      if (settings.clientId !== undefined) {
        return {
          client_id: settings.clientId,
          ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
        };
      }
      return (await loadLogin(cf)).client as OAuthClientInformationMixed | undefined;
    },
    async saveClientInformation(information: OAuthClientInformationMixed) {
      // a pre-registered client comes from the config every time
      if (settings.clientId !== undefined) return;
      const redirect = redirectUrl();
      await saveLogin(cf, (login) => ({
        ...login,
        client: { ...information },
        redirectUrl: redirect,
      }));
    },
    async tokens() {
      cf.stored = await loadLogin(cf);
      const tokens = cf.stored.tokens as OAuthTokens | undefined;
      cf.refreshToken = tokens?.refresh_token;
      return tokens;
    },
    async saveTokens(tokens: OAuthTokens) {
      await saveLogin(cf, (login) => withTokens(login, { ...tokens }));
    },
  };
}

/** `login` with new tokens: the step-up scope and a login's PKCE verifier are done with. */
function withTokens(login: StoredLogin, tokens: Record<string, unknown>): StoredLogin {
  const { wantedScope: _, codeVerifier: __, expiresAt: ___, ...rest } = login;
  const now = Date.now();
  const expiresIn = tokens.expires_in;
  return {
    ...rest,
    tokens,
    savedAt: now,
    ...(typeof expiresIn === "number" ? { expiresAt: now + expiresIn * 1000 } : {}),
  };
}

type Scope = Parameters<NonNullable<OAuthClientProvider["invalidateCredentials"]>>[0];
type Discovery = Awaited<ReturnType<NonNullable<OAuthClientProvider["discoveryState"]>>>;

/** The provider's authorization methods: the redirect, PKCE, forgetting, discovery. */
function authorizationMethods(cf: CodeFlow) {
  return {
    async redirectToAuthorization(authorizationUrl: URL) {
      const { openUrl, server } = cf.flow;
      if (!cf.listener || !openUrl) {
        // the scope the server asked for is what the next login must request
        const wanted = authorizationUrl.searchParams.get("scope");
        if (wanted) await saveLogin(cf, (login) => ({ ...login, wantedScope: wanted }));
        throw needsLoginOf(cf);
      }
      cf.pending = cf.listener.waitForCode(cf.state ?? "");
      cf.pending.catch(() => undefined);
      await openUrl(authorizationUrl, server);
    },
    async saveCodeVerifier(codeVerifier: string) {
      cf.verifier = codeVerifier;
      // a login in progress keeps it in the store; a gateway's passive flow never uses it
      if (cf.listener) await saveLogin(cf, (login) => ({ ...login, codeVerifier }));
    },
    async codeVerifier() {
      const verifier = cf.listener ? (await loadLogin(cf)).codeVerifier : cf.verifier;
      if (verifier === undefined) throw needsLoginOf(cf);
      return verifier;
    },
    async invalidateCredentials(scope: Scope) {
      if (scope === "verifier") {
        cf.verifier = undefined;
        await saveLogin(cf, ({ codeVerifier: _, ...login }) => login);
        return;
      }
      const refused = cf.refreshToken;
      await saveLogin(cf, (current) => {
        // another gateway refreshed or logged in since: what was refused is not what is stored
        if (current.tokens?.refresh_token !== refused) return current;
        const { tokens, client, discovery, ...login } = current;
        return {
          ...login,
          ...(scope === "tokens" || scope === "all" ? {} : { tokens }),
          ...(scope === "client" || scope === "all" ? {} : { client }),
          ...(scope === "discovery" || scope === "all" ? {} : { discovery }),
        };
      });
    },
    async discoveryState() {
      const login = await loadLogin(cf);
      // passive, nothing stored: only a login can help; no discovery or registration is tried
      if (!cf.listener && login.tokens === undefined) throw needsLoginOf(cf);
      return login.discovery as Discovery;
    },
    async saveDiscoveryState(discovery: NonNullable<Discovery>) {
      await saveLogin(cf, (login) => ({ ...login, discovery: { ...discovery } }));
    },
  };
}

/** The SDK's `OAuthClientProvider` over one code flow. */
function codeFlowProvider(cf: CodeFlow): OAuthClientProvider {
  const { settings } = cf.flow;
  const redirectUrl = () => String(cf.listener?.url ?? cf.stored.redirectUrl ?? PASSIVE_REDIRECT);
  return {
    get redirectUrl() {
      return redirectUrl();
    },
    ...(settings.clientMetadataUrl ? { clientMetadataUrl: settings.clientMetadataUrl } : {}),
    get clientMetadata(): OAuthClientMetadata {
      return clientMetadataOf(settings, redirectUrl());
    },
    state: () => {
      cf.state = randomBytes(16).toString("base64url");
      return cf.state;
    },
    ...clientMethods(cf, redirectUrl),
    ...authorizationMethods(cf),
  };
}

/** Starts the loopback listener of an interactive login (a no-op when passive or started). */
async function prepareListener(cf: CodeFlow): Promise<void> {
  const { openUrl, settings, server } = cf.flow;
  if (!openUrl || cf.listener) return;
  const login = await loadLogin(cf);
  const port = settings.redirectPort ?? portOf(login.redirectUrl);
  cf.listener = await startLoopbackRedirect(port).catch(async (error) => {
    if (settings.redirectPort !== undefined) {
      throw new Error(
        `Cannot listen on 127.0.0.1:${settings.redirectPort} (auth.redirectPort of "${server}") for the login: ${(error as Error).message}. Free the port or change auth.redirectPort.`,
      );
    }
    // the registered redirect used another port: register again with the new one
    if (login.client) await saveLogin(cf, ({ client: _, ...rest }) => rest);
    return startLoopbackRedirect(0);
  });
}

/** Authorization code + PKCE with logins kept in `store`. */
export function createCodeFlowAuth(flow: CodeFlowOptions): UpstreamAuth {
  const cf: CodeFlow = {
    flow,
    cached: undefined,
    listener: undefined,
    stored: { server: flow.server, url: flow.url },
    verifier: undefined,
    state: undefined,
    pending: undefined,
    refreshToken: undefined,
  };
  const provider = codeFlowProvider(cf);
  const { store, server, url } = flow;
  const fetch = lockedRefreshFetch({
    read: () => store.get(server, url),
    save: (tokens) => saveLogin(cf, (login) => withTokens(login, tokens)),
    lock: () => (store.lock ? store.lock(server, url) : localLock(loginKey(server, url))),
    sent: (refreshToken) => {
      cf.refreshToken = refreshToken;
    },
  });
  return {
    provider,
    fetch,
    loginCommand: flow.loginCommand,
    prepare: () => prepareListener(cf),
    async retrying(attempt) {
      try {
        return await attempt();
      } catch (error) {
        const code = cf.pending;
        cf.pending = undefined;
        if (!(error instanceof UnauthorizedError) || code === undefined) throw error;
        await auth(provider, { serverUrl: flow.url, authorizationCode: await code });
        return attempt();
      }
    },
    loginNeeded(error) {
      const found = findNeedsLogin(error);
      if (found) return found.message;
      // the SDK gave up after a redirect it could not follow, or a refused step-up
      const status = (error as { code?: unknown }).code;
      if (error instanceof UnauthorizedError || status === 401 || status === 403) {
        return needsLoginOf(cf).message;
      }
      return undefined;
    },
    reload() {
      cf.cached = undefined;
    },
    onLogin(changed) {
      return flow.store.onChange(() => {
        cf.cached = undefined;
        changed();
      });
    },
    async close() {
      await cf.listener?.close();
      cf.listener = undefined;
    },
  };
}

function portOf(address: string | undefined): number {
  if (address === undefined) return 0;
  try {
    return Number(new URL(address).port) || 0;
  } catch {
    return 0;
  }
}
