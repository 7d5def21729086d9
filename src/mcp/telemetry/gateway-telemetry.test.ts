/**
 * The gateway's OpenTelemetry spans and metrics, read with the SDK's in-memory span exporter and
 * a metric reader: a search, a call cut by the result budget, a failing tool; and no argument
 * value anywhere in what is recorded.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as api from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpillStore } from "../../budget/index.js";
import type { ToolDefinition } from "../../catalog/index.js";
import { createMCPToolSift, type MCPToolSift } from "../create-mcp-toolsift.js";
import { createGatewaySession } from "../serve/gateway-session.js";
import { memoryOtel } from "./__tests__/memory-otel.js";
import { createGatewayTelemetry } from "./gateway-telemetry.js";

/** A value no span, event or metric may hold: it only ever appears as an argument. */
const SECRET = "hunter2-argument-value";

const tools: ToolDefinition[] = [
  {
    name: "fetch_weather_report",
    description: "Returns a long weather report for a city.",
    // deferred like an upstream's tool, so the bridge's search finds it
    defer: "always",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    },
    handler: (args) => `${String(args.city)}: ${"sunny and mild ".repeat(400)}`,
  },
  {
    name: "broken_lookup",
    description: "Looks a record up; always fails.",
    defer: "always",
    inputSchema: { type: "object", properties: { key: { type: "string" } } },
    handler: () => {
      throw new Error("lookup backend unavailable");
    },
  },
];

const { otel, exporter, reader } = memoryOtel();

let sift: MCPToolSift;
let client: Client;

beforeAll(async () => {
  sift = await createMCPToolSift({
    servers: {},
    tools,
    budget: { perToolResult: 200, spill: createSpillStore() },
    log: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = createGatewaySession("otel", {
    sift,
    mode: "bridge",
    telemetry: createGatewayTelemetry(otel),
  });
  await session.connect(serverSide);
  client = new Client({ name: "otel-test", version: "1" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await sift?.close();
});

describe("gateway telemetry", () => {
  it("records a span per search and call, with names, outcome and budget, never arguments", async () => {
    await client.callTool({
      name: "tool_search",
      arguments: { queries: ["weather report for a city", SECRET] },
    });
    await client.callTool({
      name: "tool_call",
      arguments: { name: "fetch_weather_report", arguments: { city: SECRET } },
    });
    const failed = await client.callTool({
      name: "tool_call",
      arguments: { name: "broken_lookup", arguments: { key: SECRET } },
    });
    expect(failed.isError).toBe(true);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      "toolsift.tool_search",
      "toolsift.tools/call",
      "toolsift.tools/call",
    ]);
    const [search, call, failure] = spans.map((span) => span.attributes);
    expect(search).toMatchObject({
      "toolsift.called": "tool_search",
      "toolsift.mode": "bridge",
      "toolsift.route": "meta",
      "toolsift.outcome": "ok",
    });
    expect(search?.["toolsift.search.results"]).toBeGreaterThan(0);
    expect(call).toMatchObject({
      "toolsift.tool": "fetch_weather_report",
      "toolsift.route": "bridge",
      "toolsift.outcome": "ok",
      "toolsift.truncated": true,
      "toolsift.spilled": true,
      "toolsift.result_tokens.limit": 200,
    });
    expect(call?.["toolsift.result_tokens.before"]).toBeGreaterThan(200);
    expect(failure).toMatchObject({
      "toolsift.tool": "broken_lookup",
      "toolsift.outcome": "error",
      "toolsift.truncated": false,
    });
    expect(failure?.["toolsift.error_code"]).toEqual(expect.any(String));
    expect(spans[2]?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(spans[1]?.status.code).toBe(api.SpanStatusCode.OK);
    // nothing recorded holds an argument value: attributes, events, status messages
    const recorded = JSON.stringify(
      spans.map((span) => [span.name, span.attributes, span.events, span.status]),
    );
    expect(recorded).not.toContain(SECRET);

    const { resourceMetrics } = await reader.collect();
    const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    expect(metrics.map((metric) => metric.descriptor.name).sort()).toEqual([
      "toolsift.call.duration",
      "toolsift.call.errors",
      "toolsift.calls",
      "toolsift.results.tokens_saved",
      "toolsift.results.truncated",
      "toolsift.search.results",
    ]);
    const calls = metrics.find((metric) => metric.descriptor.name === "toolsift.calls");
    const total = calls?.dataPoints.reduce((sum, point) => sum + Number(point.value), 0);
    expect(total).toBe(3);
    expect(JSON.stringify(metrics)).not.toContain(SECRET);
  });

  it("names the session's user (enduser.id) on its spans, and no user when it has none", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = createGatewaySession("otel-user", {
      sift,
      mode: "bridge",
      telemetry: createGatewayTelemetry(otel),
      user: () => "alice@example.com",
    });
    await session.connect(serverSide);
    const named = new Client({ name: "otel-user-test", version: "1" });
    await named.connect(clientSide);
    exporter.reset();
    await named.callTool({ name: "tool_search", arguments: { queries: ["weather report"] } });
    await named.callTool({
      name: "tool_call",
      arguments: { name: "fetch_weather_report", arguments: { city: "Oslo" } },
    });
    await client.callTool({ name: "tool_search", arguments: { queries: ["weather report"] } });
    await named.close();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.attributes["enduser.id"]])).toEqual([
      ["toolsift.tool_search", "alice@example.com"],
      ["toolsift.tools/call", "alice@example.com"],
      // the first session has no user: no attribute at all, not an empty one
      ["toolsift.tool_search", undefined],
    ]);
    expect(Object.keys(spans[2]?.attributes ?? {})).not.toContain("enduser.id");
    // the user is a span attribute only: metric series do not multiply by users
    const { resourceMetrics } = await reader.collect();
    expect(JSON.stringify(resourceMetrics)).not.toContain("alice@example.com");
  });

  it("records a span and a count for each upstream (re)start", () => {
    let listed: ((server: string) => void) | undefined;
    const upstreams = {
      onToolsChanged: (listener: (server: string) => void) => {
        listed = listener;
        return () => undefined;
      },
      status: () => [{ server: "files", state: "ready", tools: 7, restarts: 1 }],
    };
    exporter.reset();
    createGatewayTelemetry(otel).watchUpstreams({ upstreams } as unknown as MCPToolSift);
    listed?.("files");
    expect(exporter.getFinishedSpans().map((span) => [span.name, span.attributes])).toEqual([
      [
        "toolsift.upstream.start",
        {
          "toolsift.server": "files",
          "toolsift.upstream.tools": 7,
          "toolsift.upstream.restarts": 1,
        },
      ],
    ]);
  });
});
