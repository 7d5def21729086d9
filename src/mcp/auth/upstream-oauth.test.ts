import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { followToLoopback } from "../../../test/fixtures/mcp/follow-to-loopback.js";
import {
  type OAuthTestServer,
  startOAuthTestServer,
} from "../../../test/fixtures/mcp/oauth-test-server.js";
import { createMCPToolSift, type MCPToolSift } from "../create-mcp-toolsift.js";
import { serveHttp } from "../serve/serve-gateway.js";
import type { HttpServerConfig, MCPLogEntry } from "../types.js";
import { loginUpstream } from "./login-upstream.js";
import { createTokenStore } from "./token-store.js";

const LOGIN = "toolsift auth login remote --config gateway.json";
const faultServer = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../test/fixtures/mcp/fault-server.mjs",
);

async function until(check: () => boolean): Promise<void> {
  // a hang guard, not a timing assertion
  for (let attempt = 0; attempt < 400 && !check(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("OAuth for an HTTP upstream, end to end with a local authorization server", () => {
  let server: OAuthTestServer | undefined;
  let sift: MCPToolSift | undefined;
  afterEach(async () => {
    await sift?.close();
    await server?.close();
  });

  it("needs_login → login → up without a restart → refresh mid-session → revoked → needs_login, no secret shown", async () => {
    server = await startOAuthTestServer();
    const file = path.join(await mkdtemp(path.join(tmpdir(), "toolsift-oauth-")), "tokens.json");
    const store = createTokenStore(file, { pollMs: 20 });
    const config: HttpServerConfig = {
      url: server.url,
      auth: { clientId: server.clientId, clientSecret: server.clientSecret },
    };
    const logs: MCPLogEntry[] = [];
    const shown: string[] = [];
    sift = await createMCPToolSift({
      servers: { remote: config },
      auth: { store, loginCommand: () => LOGIN },
      log: (entry) => logs.push(entry),
    });

    // no login yet: the server waits for one and lists nothing
    const [waiting] = sift.upstreams.status();
    expect(waiting?.state).toBe("needs_login");
    expect(waiting?.error).toContain(LOGIN);
    expect(sift.catalog.list()).toEqual([]);

    // the login, with a test following the redirect where a browser would
    const outcome = await loginUpstream("remote", config, { store, openUrl: followToLoopback });
    expect(outcome.tools).toBe(1);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    // the running gateway sees the login in the store and comes up on its own
    await until(() => (sift?.catalog.size ?? 0) > 0);
    expect(sift.upstreams.status()[0]?.state).toBe("ready");
    expect(sift.catalog.list().map((tool) => tool.name)).toEqual(["remote__echo"]);
    const call = async (text: string) => {
      const result = await sift!.execute({
        session: "s",
        name: "remote__echo",
        arguments: { text },
      });
      shown.push(JSON.stringify(result));
      return result;
    };
    const first = await call("one");
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();

    // the access token expires mid-session: refreshed, and the call still succeeds
    server.expireAccessTokens();
    const refreshed = await call("two");
    expect(refreshed.isError).toBeFalsy();
    expect(JSON.stringify(refreshed.content)).toContain("two");
    expect(server.refreshes).toBe(1);

    // the refresh token is revoked: the call names the login command, the state says why
    server.revokeRefreshTokens();
    server.expireAccessTokens();
    const refused = await call("three");
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(LOGIN);
    const status = sift.upstreams.status()[0];
    expect(status?.state).toBe("needs_login");
    shown.push(JSON.stringify(sift.upstreams.status()));

    // secrets: no token and no client secret in any log line, result or status
    shown.push(...logs.map((entry) => entry.message));
    const secrets = [...server.issued, server.clientSecret];
    expect(secrets.length).toBeGreaterThan(4);
    const leaks = secrets.filter((secret) => shown.some((text) => text.includes(secret)));
    expect(leaks).toEqual([]);
  }, 60_000);

  it("a bridge search names the servers waiting for a login, with the command to run", async () => {
    server = await startOAuthTestServer();
    const file = path.join(await mkdtemp(path.join(tmpdir(), "toolsift-oauth-")), "tokens.json");
    sift = await createMCPToolSift({
      servers: {
        // a server that is up, so the gateway has tools and its search tool
        fault: { command: "node", args: [faultServer] },
        remote: {
          url: server.url,
          auth: { clientId: server.clientId, clientSecret: server.clientSecret },
        },
      },
      auth: { store: createTokenStore(file, { pollMs: 20 }), loginCommand: () => LOGIN },
    });
    const running = await serveHttp({ sift, mode: "bridge" });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
    try {
      const result = await client.callTool({
        name: "tool_search",
        arguments: { queries: ["echo"] },
      });
      const text = JSON.stringify(result.content);
      expect(text).toContain('Not searched: Server \\"remote\\" needs a login');
      expect(text).toContain(LOGIN);
      expect(text).not.toMatch(/still starting: [^.]*remote/);
    } finally {
      await client.close();
      await running.close();
      sift = undefined;
    }
  });
});
