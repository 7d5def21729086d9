import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type JwtIssuer, startJwtIssuer } from "../../../test/fixtures/mcp/jwt-issuer.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { type RunningGateway, serveHttp } from "../serve/serve-gateway.js";
import { createSessionRecorder } from "../serve/session-recorder.js";
import { createMemorySessionStore } from "../state/memory-session-store.js";
import { createReplicaState } from "../state/replica-gateway.js";
import type { UpstreamServerConfig } from "../types.js";
import type { GatewayAuthOptions } from "./bearer-guard.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const faultServer = path.join(root, "test/fixtures/mcp/fault-server.mjs");

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function issuer(options: { scope?: string } = {}): Promise<JwtIssuer> {
  const started = await startJwtIssuer(options);
  cleanup.push(() => started.close());
  return started;
}

async function gateway(
  auth: GatewayAuthOptions,
  // most tests never list a tool: no upstream to start
  servers: Record<string, UpstreamServerConfig> = {},
): Promise<RunningGateway> {
  const sift = await createMCPToolSift({ servers });
  const running = await serveHttp({ sift, mode: "direct", auth });
  cleanup.push(() => running.close());
  return running;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "1" },
  },
};

/** The official SDK client, sending `token` as its bearer token. */
async function bearerClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "sdk", version: "1" });
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  cleanup.push(() => client.close());
  return client;
}

/** A raw MCP POST (the SDK client hides statuses and headers). */
function post(url: string, token: string | undefined, body: unknown, session?: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(session === undefined ? {} : { "mcp-session-id": session }),
    },
    body: JSON.stringify(body),
  });
}

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `alg: none`: a JWT with no signature at all. */
function unsigned(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

describe("the gateway protected by an identity provider", () => {
  it("serves RFC 9728 metadata at both well-known paths, naming the issuer and scopes", async () => {
    const idp = await issuer();
    const running = await gateway({
      issuer: idp.issuer,
      audience: "toolsift-gateway",
      scopes: ["mcp:tools"],
    });
    const url = new URL(running.url as string);
    for (const suffix of ["", "/mcp"]) {
      const response = await fetch(`${url.origin}/.well-known/oauth-protected-resource${suffix}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: running.url,
        authorization_servers: [idp.issuer],
        scopes_supported: ["mcp:tools"],
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("answers 401 with resource_metadata and the scope when no token is sent", async () => {
    const idp = await issuer();
    const running = await gateway({ issuer: idp.issuer, audience: "aud-1", scopes: ["mcp:tools"] });
    const response = await post(running.url as string, undefined, INITIALIZE);
    expect(response.status).toBe(401);
    const origin = new URL(running.url as string).origin;
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
  });

  it("refuses expired, not-yet-valid, wrong-audience, wrong-issuer, forged, unsigned and exp-less tokens with 401 invalid_token", async () => {
    const idp = await issuer({ scope: "mcp:tools" });
    const running = await gateway({ issuer: idp.issuer, audience: "aud-1" });
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, RegExp][] = [
      ["expired", await idp.sign({ aud: "aud-1", exp: now - 600 }), /expired/],
      ["not yet valid", await idp.sign({ aud: "aud-1", nbf: now + 600 }), /nbf claim/],
      ["wrong audience", await idp.sign({ aud: "other-api" }), /aud claim/],
      ["wrong issuer", await idp.sign({ aud: "aud-1", iss: "https://evil.example" }), /iss claim/],
      ["bad signature", await idp.sign({ aud: "aud-1" }, { key: "foreign" }), /signature/],
      [
        "alg none",
        unsigned({ sub: "alice", iss: idp.issuer, aud: "aud-1", exp: now + 600 }),
        /not a signed JWT|algorithm/,
      ],
      ["no exp", await idp.sign({ aud: "aud-1", exp: undefined }), /exp claim is missing/],
      ["not a JWT", "opaque-token-123", /not a signed JWT|not a valid JWT/],
    ];
    for (const [name, token, reason] of cases) {
      const response = await post(running.url as string, token, INITIALIZE);
      expect(response.status, name).toBe(401);
      const header = response.headers.get("www-authenticate") ?? "";
      expect(header, name).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"/);
      expect(header, name).toMatch(reason);
      const body = await response.text();
      expect(body, name).not.toContain(token);
    }
    // the same audience and issuer with a good signature passes: the refusals were the faults
    const good = await post(running.url as string, await idp.sign({ aud: "aud-1" }), INITIALIZE);
    expect(good.status).toBe(200);
  });

  it("answers 403 insufficient_scope naming the scope a token lacks", async () => {
    const idp = await issuer();
    const running = await gateway({
      issuer: idp.issuer,
      audience: "aud-1",
      scopes: ["mcp:tools", "mcp:admin"],
    });
    const token = await idp.sign({ aud: "aud-1", scope: "mcp:tools openid" });
    const response = await post(running.url as string, token, INITIALIZE);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(
      /error="insufficient_scope", error_description="missing scope mcp:admin"/,
    );
    expect(response.headers.get("www-authenticate")).toMatch(/scope="mcp:tools mcp:admin"/);
    // `scp` as a list (Okta, Entra) counts too
    const listed = await idp.sign({
      aud: "aud-1",
      scope: undefined,
      scp: ["mcp:tools", "mcp:admin"],
    });
    expect((await post(running.url as string, listed, INITIALIZE)).status).toBe(200);
  });

  it("binds a session to its subject: another subject's valid token cannot use it", async () => {
    const idp = await issuer();
    const running = await gateway({ issuer: idp.issuer, audience: "aud-1" });
    const alice = await idp.sign({ aud: "aud-1", sub: "alice" });
    const bob = await idp.sign({ aud: "aud-1", sub: "bob" });
    const opened = await post(running.url as string, alice, INITIALIZE);
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id") as string;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const stolen = await post(running.url as string, bob, list, session);
    expect(stolen.status).toBe(403);
    expect(await stolen.text()).toMatch(/another user/);
    const own = await post(running.url as string, alice, list, session);
    expect(own.status).toBe(200);
  });

  it("keeps a session's subject when another replica adopts it from the shared store", async () => {
    const idp = await issuer();
    const state = createReplicaState(createMemorySessionStore());
    const auth = { issuer: idp.issuer, audience: "aud-1" };
    const replica = async () => {
      const sift = await createMCPToolSift({
        servers: {},
        disclosure: { store: state.reveals.revealStore },
      });
      const running = await serveHttp({ sift, mode: "bridge", auth, state });
      cleanup.push(() => running.close());
      return running.url as string;
    };
    const [first, second] = [await replica(), await replica()];
    const alice = await idp.sign({ aud: "aud-1", sub: "alice" });
    const bob = await idp.sign({ aud: "aud-1", sub: "bob" });
    const opened = await post(first, alice, INITIALIZE);
    const session = opened.headers.get("mcp-session-id") as string;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    expect((await post(second, bob, list, session)).status).toBe(403);
    expect((await post(second, alice, list, session)).status).toBe(200);
  });

  it("finds a rotated key at once and refuses tokens of the key it replaced", async () => {
    const idp = await issuer();
    const running = await gateway({ issuer: idp.issuer, audience: "aud-1", keyCooldownMs: 0 });
    const before = await idp.sign({ aud: "aud-1" });
    expect((await post(running.url as string, before, INITIALIZE)).status).toBe(200);
    await idp.rotate();
    const after = await idp.sign({ aud: "aud-1" });
    expect((await post(running.url as string, after, INITIALIZE)).status).toBe(200);
    const old = await post(running.url as string, before, INITIALIZE);
    expect(old.status).toBe(401);
    expect(old.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("the official SDK client discovers the issuer from the 401 and connects with its own token", async () => {
    const idp = await issuer({ scope: "mcp:tools" });
    // the audience is the gateway's own URL (RFC 8707), which the client sends as `resource`
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const sift = await createMCPToolSift({
      servers: { fault: { command: "node", args: [faultServer] } },
    });
    const protectedGateway = await serveHttp({
      sift,
      mode: "direct",
      port,
      auth: { issuer: idp.issuer, audience: url, scopes: ["mcp:tools"] },
    });
    cleanup.push(() => protectedGateway.close());
    const client = new Client({ name: "sdk", version: "1" });
    const authProvider = new ClientCredentialsProvider({
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      scope: "mcp:tools",
      expectedIssuer: idp.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    cleanup.push(() => client.close());
    const result = await client.callTool({ name: "fault__echo", arguments: { text: "hi" } });
    expect(result.structuredContent).toEqual({ echoed: "hi" });
    expect(idp.issued).toHaveLength(1);
  });

  it("the official SDK client connects with a bearer token in its headers", async () => {
    const idp = await issuer();
    const sift = await createMCPToolSift({
      servers: { fault: { command: "node", args: [faultServer] } },
    });
    const recorder = createSessionRecorder();
    const auth = { issuer: idp.issuer, audience: "aud-1" };
    const running = await serveHttp({ sift, mode: "direct", auth, recorder });
    cleanup.push(() => running.close());
    const token = await idp.sign({ aud: "aud-1", sub: "alice@example.com" });
    const client = await bearerClient(running.url as string, token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("fault__echo");
    // the recorder (the inspector's Sessions view) names the session's user
    expect(recorder.sessions().map((session) => session.user)).toEqual(["alice@example.com"]);
  });

  it("never passes the client's token to an HTTP upstream", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const upstream = createServer(async (request, response) => {
      seen.push(request.headers);
      const server = new McpServer({ name: "upstream", version: "1" });
      server.registerTool("whoami", { inputSchema: { note: z.string() } }, async ({ note }) => ({
        content: [{ type: "text", text: `ok ${note}` }],
      }));
      const transport = new StreamableHTTPServerTransport({});
      response.once("close", () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    cleanup.push(
      () =>
        new Promise((resolve) => {
          upstream.closeAllConnections();
          upstream.close(resolve);
        }),
    );
    const idp = await issuer();
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
    const running = await gateway(
      { issuer: idp.issuer, audience: "aud-1" },
      { remote: { url: upstreamUrl, auth: false } },
    );
    const token = await idp.sign({ aud: "aud-1" });
    const client = await bearerClient(running.url as string, token);
    const result = await client.callTool({ name: "remote__whoami", arguments: { note: "x" } });
    expect(JSON.stringify(result)).toContain("ok x");
    expect(seen.length).toBeGreaterThan(0);
    for (const headers of seen) {
      expect(headers.authorization).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain(token);
    }
  });
});
