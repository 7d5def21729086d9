import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startJwtIssuer } from "../../test/fixtures/mcp/jwt-issuer.js";
import { CONFIG_SECRETS, writeSecretConfig } from "../../test/fixtures/mcp/secret-config.js";
import {
  createMCPToolSift,
  createSessionRecorder,
  loadGatewayConfig,
  serveHttp,
} from "../mcp/index.js";
import { startGatewayInspector } from "./gateway.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("the inspector API shows no secret", () => {
  it("no config env value, header, URL password or query, bearer token or issuer secret in any /api/* answer", async () => {
    const file = await writeSecretConfig();
    const config = await loadGatewayConfig(file, { env: CONFIG_SECRETS });
    const idp = await startJwtIssuer();
    cleanup.push(() => idp.close());
    const sift = await createMCPToolSift({ servers: config.servers });
    const recorder = createSessionRecorder();
    const gateway = await serveHttp({
      sift,
      mode: "bridge",
      recorder,
      auth: { issuer: idp.issuer, audience: "aud-1" },
    });
    cleanup.push(() => gateway.close());
    const inspector = await startGatewayInspector({
      sift,
      recorder,
      source: file,
      profile: undefined,
      port: 0,
    });
    cleanup.push(() => inspector.close());

    const token = await idp.sign({ aud: "aud-1", sub: "alice" });
    const client = new Client({ name: "secret-test", version: "1" });
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url as string), {
        requestInit: { headers },
      }),
    );
    cleanup.push(() => client.close());
    await client.callTool({ name: "tool_search", arguments: { queries: ["echo", "ping"] } });
    await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__echo", arguments: { text: "hello" } },
    });
    const failed = await client.callTool({
      name: "tool_call",
      arguments: { name: "remote__ping", arguments: {} },
    });
    expect(failed.isError).toBe(true);

    const answers: string[] = [];
    for (const api of [
      "/api/catalog",
      "/api/search?q=echo",
      "/api/search?q=ping",
      "/api/cost?reveal=fault__echo,remote__ping",
      "/api/sessions",
    ]) {
      const response = await fetch(new URL(api, inspector.url));
      expect(response.status, api).toBe(200);
      answers.push(await response.text());
    }
    const everything = answers.join("\n");
    // the answers are about these calls: the scan reads real content
    expect(everything).toContain("fault__echo");
    expect(everything).toContain("remote__ping");
    expect(everything).toContain("127.0.0.1:9/mcp");
    const leaks = [...Object.values(CONFIG_SECRETS), token, idp.clientSecret].filter((secret) =>
      everything.includes(secret),
    );
    expect(leaks).toEqual([]);
    expect(everything).not.toMatch(/alice:|api_key=|authorization/i);
  });
});
