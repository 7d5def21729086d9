/**
 * OAuth for one HTTP upstream: the `OAuthClientProvider` the MCP SDK's transport asks for tokens,
 * registration and redirects. The SDK runs the protocol (discovery from the 401, registration,
 * PKCE, refresh, step-up); toolsift keeps what it leaves to the host. `client_credentials` uses the
 * SDK's own providers (below); every other grant is the code flow (`code-flow-auth.ts`).
 */
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type { HttpServerConfig, UpstreamAuth, UpstreamAuthConfig } from "../types.js";
import { createCodeFlowAuth } from "./code-flow-auth.js";
import { createTokenStore, type TokenStore } from "./token-store.js";

export { NeedsLoginError } from "./needs-login.js";
export type { UpstreamAuth };

/** How upstreams log in; given to `createMCPToolSift({ auth })`. */
export interface UpstreamAuthOptions {
  /** Where logins are kept; default the file store under the user's config directory. */
  store?: TokenStore;
  /** Interactive login: opens the authorization URL (a browser, or a test that follows the
   * redirect). Without it a server that needs a login is `needs_login` until one is stored. */
  openUrl?: (url: URL, server: string) => void | Promise<void>;
  /** The command a `needs_login` message names; default `toolsift auth login SERVER`. */
  loginCommand?: (server: string) => string;
}

const hasAuthorizationHeader = (config: HttpServerConfig) =>
  Object.keys(config.headers ?? {}).some((key) => key.toLowerCase() === "authorization");

/** The auth of `config`, or undefined when the server has OAuth off or a fixed Authorization. */
export function createUpstreamAuth(
  server: string,
  config: HttpServerConfig,
  options: UpstreamAuthOptions = {},
): UpstreamAuth | undefined {
  if (config.auth === false || hasAuthorizationHeader(config)) return undefined;
  const settings: UpstreamAuthConfig = config.auth ?? {};
  const loginCommand = (options.loginCommand ?? ((name) => `toolsift auth login ${name}`))(server);
  if (settings.grant === "client_credentials") {
    return machineAuth(server, settings, loginCommand);
  }
  return createCodeFlowAuth({
    server,
    url: config.url,
    settings,
    store: options.store ?? createTokenStore(),
    loginCommand,
    ...(options.openUrl ? { openUrl: options.openUrl } : {}),
  });
}

/** `client_credentials`: the SDK's own providers; tokens live in memory and are fetched again. */
function machineAuth(
  server: string,
  settings: UpstreamAuthConfig,
  loginCommand: string,
): UpstreamAuth {
  if (settings.clientId === undefined || (!settings.clientSecret && !settings.privateKey)) {
    throw new Error(
      `Server "${server}": auth.grant "client_credentials" needs auth.clientId and auth.clientSecret or auth.privateKey in the config.`,
    );
  }
  const common = {
    clientId: settings.clientId,
    clientName: settings.clientName ?? "toolsift",
    ...(settings.scope ? { scope: settings.scope } : {}),
  };
  const provider = settings.privateKey
    ? new PrivateKeyJwtProvider({
        ...common,
        privateKey: settings.privateKey,
        algorithm: settings.signingAlgorithm ?? "RS256",
      })
    : new ClientCredentialsProvider({ ...common, clientSecret: settings.clientSecret as string });
  return {
    provider,
    loginCommand,
    prepare: async () => undefined,
    retrying: (attempt) => attempt(),
    loginNeeded: () => undefined,
    reload: () => undefined,
    onLogin: () => () => undefined,
    close: async () => undefined,
  };
}
