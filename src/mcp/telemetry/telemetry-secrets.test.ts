/**
 * Issue 23's secrets rule over telemetry: a gateway checked by an identity provider, with config
 * secrets in an upstream's env, URL and headers, serves real calls with OpenTelemetry on; no span
 * attribute, event, status or metric attribute holds the bearer token, a config secret or an
 * argument value, while the spans do name the tools and the token's subject.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startJwtIssuer } from "../../../test/fixtures/mcp/jwt-issuer.js";
import { CONFIG_SECRETS, writeSecretConfig } from "../../../test/fixtures/mcp/secret-config.js";
import { loadGatewayConfig } from "../config/load-gateway-config.js";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { serveHttp } from "../serve/serve-gateway.js";
import { memoryOtel } from "./__tests__/memory-otel.js";
import { createGatewayTelemetry } from "./gateway-telemetry.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const ARGUMENT = "argument-value-7c15";

describe("telemetry shows no secret", () => {
  it("no bearer token, config env value, URL password or query, header or argument value in any span or metric", async () => {
    const { otel, exporter, reader } = memoryOtel();
    const config = await loadGatewayConfig(await writeSecretConfig(), { env: CONFIG_SECRETS });
    const idp = await startJwtIssuer();
    cleanup.push(() => idp.close());
    const sift = await createMCPToolSift({ servers: config.servers });
    cleanup.push(() => sift.close());
    // as `serve --otel` does: the remote's failed start (its URL holds secrets) is a span too
    const telemetry = createGatewayTelemetry(otel);
    telemetry.watchUpstreams(sift);
    const gateway = await serveHttp({
      sift,
      mode: "bridge",
      auth: { issuer: idp.issuer, audience: "aud-1" },
      telemetry,
    });
    cleanup.push(() => gateway.close());

    const token = await idp.sign({ aud: "aud-1", sub: "alice" });
    const client = new Client({ name: "otel-secret-test", version: "1" });
    const headers = { authorization: `Bearer ${token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url as string), {
        requestInit: { headers },
      }),
    );
    cleanup.push(() => client.close());
    await client.listTools();
    await client.callTool({ name: "tool_search", arguments: { queries: ["echo", ARGUMENT] } });
    const echoed = await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__echo", arguments: { text: ARGUMENT } },
    });
    expect(JSON.stringify(echoed.content)).toContain(ARGUMENT);
    const failed = await client.callTool({
      name: "tool_call",
      arguments: { name: "remote__ping", arguments: { note: ARGUMENT } },
    });
    expect(failed.isError).toBe(true);

    const spans = exporter.getFinishedSpans();
    const recorded = JSON.stringify(
      spans.map((span) => [span.name, span.attributes, span.events, span.status, span.links]),
    );
    const { resourceMetrics } = await reader.collect();
    const everything = `${recorded}\n${JSON.stringify(resourceMetrics.scopeMetrics)}`;
    // the spans are about these calls and this user: the scan reads real content
    expect(spans.map((span) => span.attributes["toolsift.tool"])).toEqual(
      expect.arrayContaining(["fault__echo", "remote__ping"]),
    );
    // every kind of span is scanned: requests, their children, upstream starts
    expect(new Set(spans.map((span) => span.name))).toEqual(
      new Set([
        "toolsift.tools/list",
        "toolsift.tool_search",
        "toolsift.search",
        "toolsift.tools/call",
        "toolsift.upstream.call",
        "toolsift.result_budget",
        "toolsift.upstream.start",
      ]),
    );
    const requests = spans.filter((span) => span.name.startsWith("toolsift.tool"));
    expect(requests.map((span) => span.attributes["enduser.id"])).toEqual([
      "alice",
      "alice",
      "alice",
      "alice",
    ]);
    const leaks = [...Object.values(CONFIG_SECRETS), token, idp.clientSecret, ARGUMENT].filter(
      (secret) => everything.includes(secret),
    );
    expect(leaks).toEqual([]);
    expect(everything).not.toMatch(/alice:|api_key=|authorization|bearer/i);
  });
});
