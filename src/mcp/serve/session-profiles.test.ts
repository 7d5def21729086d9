import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JwtIssuer, startJwtIssuer } from "../../../test/fixtures/mcp/jwt-issuer.js";
import type { GatewayAuthOptions } from "../auth/bearer-guard.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { createMemorySessionStore } from "../state/memory-session-store.js";
import { createReplicaState, type ReplicaState } from "../state/replica-gateway.js";
import type { UpstreamServerConfig } from "../types.js";
import { serveHttp } from "./serve-gateway.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const catalogServer = path.join(root, "test/fixtures/mcp/catalog-server.mjs");

// `full` takes every tool, `coding` read_file and write_file (not admin_*), `minimal` read_file
const TOOLS = ["read_file", "write_file", "admin_reset"].map((name) => ({
  name,
  description: `The ${name.replace("_", " ")} tool.`,
}));

let idp: JwtIssuer;
let servers: Record<string, UpstreamServerConfig>;
beforeAll(async () => {
  idp = await startJwtIssuer();
  const file = path.join(await mkdtemp(path.join(tmpdir(), "toolsift-profiles-")), "tools.json");
  await writeFile(file, JSON.stringify(TOOLS));
  servers = { fs: { command: "node", args: [catalogServer, file] } };
});
afterAll(async () => {
  await idp?.close();
});

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

const AUTH = {
  audience: "aud-1",
  profiles: [
    { claim: "groups", value: "dev", profile: "coding" },
    { claim: "roles", value: "ops", profile: "full" },
    { claim: "sub", value: "carol", profile: "full" },
  ],
  defaultProfile: "minimal",
};

/** A gateway behind the test provider; replicas share `state` when given. */
async function gateway(state?: ReplicaState): Promise<string> {
  const sift = await createMCPToolSift({
    servers,
    ...(state ? { disclosure: { store: state.reveals.revealStore } } : {}),
  });
  const auth: GatewayAuthOptions = { issuer: idp.issuer, ...AUTH };
  const running = await serveHttp({ sift, mode: "direct", auth, ...(state ? { state } : {}) });
  cleanup.push(() => running.close());
  return running.url as string;
}

async function connect(url: string, claims: Record<string, unknown>) {
  const token = await idp.sign({ aud: "aud-1", ...claims });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "t", version: "1" });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return { client, session: transport.sessionId as string, token };
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
const text = (result: unknown) => JSON.stringify((result as { content: unknown }).content);

describe("a session's tools follow the profile its user's token chooses (auth.profiles)", () => {
  it("gives two users with different group claims different tools, and refuses a call outside the profile naming the rule", async () => {
    const url = await gateway();
    const bob = await connect(url, { sub: "bob", groups: ["staff", "dev"] });
    const olga = await connect(url, { sub: "olga", roles: "ops" });
    expect(await names(bob.client)).toEqual(["fs__read_file", "fs__write_file"]);
    expect(await names(olga.client)).toEqual([
      "fs__admin_reset",
      "fs__fixture_echo",
      "fs__read_file",
      "fs__write_file",
    ]);

    const refused = await bob.client.callTool({ name: "fs__admin_reset", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      'Tool \\"fs__admin_reset\\" is not available to user \\"bob\\"',
    );
    expect(text(refused)).toContain(
      'profile is \\"coding\\" (chosen by auth.profiles[0] (groups has \\"dev\\"))',
    );
    expect(text(refused)).toContain('Hidden by layer \\"profile:coding\\"');
    const allowed = await olga.client.callTool({ name: "fs__admin_reset", arguments: { x: 1 } });
    expect(allowed.isError).toBeFalsy();
    expect(text(allowed)).toContain('{\\"x\\":1}');
    expect(
      (await bob.client.callTool({ name: "fs__write_file", arguments: {} })).isError,
    ).toBeFalsy();
  }, 60_000);

  it("gives a user no rule matches the default profile, and matches `sub` too", async () => {
    const url = await gateway();
    const dave = await connect(url, { sub: "dave", groups: ["staff"] });
    expect(await names(dave.client)).toEqual(["fs__read_file"]);
    const refused = await dave.client.callTool({ name: "fs__write_file", arguments: {} });
    expect(text(refused)).toContain("chosen by auth.defaultProfile");
    const carol = await connect(url, { sub: "carol" });
    expect(await names(carol.client)).toContain("fs__admin_reset");
  }, 60_000);

  it("gives a token whose claims changed its new profile on its next session", async () => {
    const url = await gateway();
    const before = await connect(url, { sub: "erin", groups: ["dev"] });
    expect(await names(before.client)).not.toContain("fs__admin_reset");
    const after = await connect(url, { sub: "erin", groups: ["dev"], roles: ["ops"] });
    // the first rule that matches wins: dev still comes first
    expect(await names(after.client)).not.toContain("fs__admin_reset");
    const promoted = await connect(url, { sub: "erin", roles: ["ops"] });
    expect(await names(promoted.client)).toContain("fs__admin_reset");
    // the session opened before keeps the profile it was opened with
    expect(await names(before.client)).toEqual(["fs__read_file", "fs__write_file"]);
  }, 60_000);

  it("refuses to start with a profile the gateway does not know, naming the closest", async () => {
    const sift = await createMCPToolSift({ servers: {} });
    cleanup.push(() => sift.close());
    const auth = { issuer: idp.issuer, audience: "aud-1", defaultProfile: "minimul" };
    await expect(serveHttp({ sift, auth })).rejects.toThrow(
      'auth.defaultProfile names profile "minimul", which the gateway does not know. Did you mean "minimal"?',
    );
  });

  it("enforces the session's profile on a replica that adopts the session from the store", async () => {
    const state = createReplicaState(createMemorySessionStore());
    const [first, second] = [await gateway(state), await gateway(state)];
    const bob = await connect(first, { sub: "bob", groups: ["dev"] });
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "fs__admin_reset", arguments: {} },
    };
    const response = await fetch(second, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${bob.token}`,
        "mcp-session-id": bob.session,
      },
      body: JSON.stringify(call),
    });
    expect(response.status).toBe(200);
    const answer = await response.text();
    expect(answer).toContain('profile is \\"coding\\"');
    expect(answer).toContain('"isError":true');
  }, 60_000);
});
