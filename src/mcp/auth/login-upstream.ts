/**
 * One interactive login to an HTTP upstream (`toolsift auth login`): connect as the gateway
 * would, let the server's 401 start the SDK's flow, open the authorization URL, take the code
 * on the loopback listener, store the tokens, and check them by listing the server's tools.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { HttpServerConfig } from "../types.js";
import { createUpstreamTransport, listAllTools } from "../upstream/upstream-transport.js";
import { createTokenStore, type TokenStore } from "./token-store.js";
import { createUpstreamAuth } from "./upstream-auth.js";

/** Options of `loginUpstream`. */
export interface LoginUpstreamOptions {
  /** Opens the authorization URL: the system browser, or a test that follows the redirect. */
  openUrl: (url: URL, server: string) => void | Promise<void>;
  store?: TokenStore;
  /** Milliseconds for the whole login, browser step included; default 300,000. */
  timeoutMs?: number;
}

/** What a login found: how many tools the server lists with the new tokens. */
export interface LoginOutcome {
  server: string;
  tools: number;
  expiresAt?: number;
}

/** Logs in to `server` and stores its tokens; rejects with a message naming the fix. */
export async function loginUpstream(
  server: string,
  config: HttpServerConfig,
  options: LoginUpstreamOptions,
): Promise<LoginOutcome> {
  const store = options.store ?? createTokenStore();
  const wanted = (await store.get(server, config.url))?.wantedScope;
  const auth = createUpstreamAuth(server, config, {
    store,
    openUrl: (url, name) => {
      // a scope the server asked for mid-session (step-up) is asked for now as well
      if (wanted) url.searchParams.set("scope", union(url.searchParams.get("scope"), wanted));
      return options.openUrl(url, name);
    },
  });
  if (!auth) {
    throw new Error(
      `Server "${server}" has ${config.auth === false ? '"auth": false' : "a fixed Authorization header"} in the config, so toolsift does not log in to it. Remove that to use OAuth.`,
    );
  }
  if (config.auth && config.auth.grant === "client_credentials") {
    throw new Error(
      `Server "${server}" uses the client_credentials grant: toolsift fetches its tokens itself, no login is needed.`,
    );
  }
  // a login replaces the stored tokens, even valid ones (another account, more scopes)
  await store.update(server, config.url, ({ tokens: _, ...login }) => login);
  auth.reload();
  const timeoutMs = options.timeoutMs ?? 300_000;
  try {
    await auth.prepare();
    const tools = await auth.retrying(async () => {
      const client = new Client({ name: "toolsift", version: "0.1.0" });
      const transport = createUpstreamTransport(
        server,
        config,
        config.transport === "sse",
        () => undefined,
        auth.provider,
        auth.fetch,
      );
      try {
        await client.connect(transport, { timeout: timeoutMs });
        return (await listAllTools(client, timeoutMs)).length;
      } finally {
        await client.close().catch(() => undefined);
      }
    });
    const stored = await store.get(server, config.url);
    return {
      server,
      tools,
      ...(stored?.expiresAt !== undefined ? { expiresAt: stored.expiresAt } : {}),
    };
  } finally {
    await auth.close();
  }
}

function union(first: string | null, second: string): string {
  return [...new Set([...(first ?? "").split(" "), ...second.split(" ")])]
    .filter((scope) => scope !== "")
    .join(" ");
}
