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
import { callScopeOf } from "../relay/call-scope.js";
import { createGatewaySession } from "../serve/gateway-session.js";
import type { UpstreamStart } from "../upstream/upstream-run.js";
import { dataPoints, memoryOtel, spanTree } from "./__tests__/memory-otel.js";
import { createGatewayTelemetry } from "./gateway-telemetry.js";
import type { Attributes } from "./otel-api.js";

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

    const finished = exporter.getFinishedSpans();
    // a span per request, its phases as children (local tools: no upstream call)
    expect(spanTree(finished)).toEqual([
      "toolsift.tool_search",
      "  toolsift.search",
      "toolsift.tools/call",
      "  toolsift.result_budget",
      "toolsift.tools/call",
      "  toolsift.result_budget",
    ]);
    const spans = finished.filter((span) => !span.parentSpanContext);
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
    expect(call?.["toolsift.result_tokens.after"]).toBeLessThanOrEqual(200);
    const [searched, budgeted] = finished.filter((span) => span.parentSpanContext);
    expect(searched?.attributes).toMatchObject({
      "toolsift.search.queries": 2,
      "toolsift.search.results": search?.["toolsift.search.results"],
    });
    // the budget's child span holds the same figures as its request span
    expect(budgeted?.attributes).toMatchObject({
      "toolsift.truncated": true,
      "toolsift.spilled": true,
      "toolsift.result_tokens.before": call?.["toolsift.result_tokens.before"],
      "toolsift.result_tokens.after": call?.["toolsift.result_tokens.after"],
    });
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
      finished.map((span) => [span.name, span.attributes, span.events, span.status]),
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
      "toolsift.sessions",
      "toolsift.turn.tokens_saved",
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
    const spans = exporter.getFinishedSpans().filter((span) => !span.parentSpanContext);
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

  it("hands a call no tracer with telemetry off: nothing is created per call", async () => {
    const inputs: Parameters<MCPToolSift["execute"]>[0][] = [];
    const watched: MCPToolSift = Object.assign(Object.create(sift), {
      execute: (input: Parameters<MCPToolSift["execute"]>[0]) => {
        inputs.push(input);
        return sift.execute(input);
      },
    });
    for (const telemetry of [undefined, createGatewayTelemetry(otel)]) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const session = createGatewaySession("off", {
        sift: watched,
        mode: "bridge",
        ...(telemetry ? { telemetry } : {}),
      });
      await session.connect(serverSide);
      const caller = new Client({ name: "otel-off", version: "1" });
      await caller.connect(clientSide);
      await caller.callTool({
        name: "tool_call",
        arguments: { name: "fetch_weather_report", arguments: { city: "Oslo" } },
      });
      await caller.close();
    }
    const tracers = inputs.map((input) => [
      typeof input.onPhase,
      typeof callScopeOf(input.host)?.onUpstreamCall,
    ]);
    expect(tracers).toEqual([
      ["undefined", "undefined"],
      ["function", "function"],
    ]);
  });

  it("records a span per upstream start, and counts starts and restarts by outcome", async () => {
    let started: ((server: string, start: UpstreamStart) => void) | undefined;
    const upstreams = {
      onStarted: (listener: typeof started) => {
        started = listener;
        return () => undefined;
      },
      status: () => [{ server: "files", state: "ready", tools: 7, restarts: 1 }],
    };
    const own = memoryOtel();
    createGatewayTelemetry(own.otel).watchUpstreams({ upstreams } as unknown as MCPToolSift);
    started?.("files", { kind: "start", ok: true, durationMs: 40 });
    started?.("files", { kind: "restart", ok: false, durationMs: 5 });
    started?.("files", { kind: "restart", ok: true, durationMs: 30 });
    const spans = own.exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.attributes, span.status.code])).toEqual([
      ["toolsift.upstream.start", startAttributes("start", "ok"), api.SpanStatusCode.OK],
      ["toolsift.upstream.start", startAttributes("restart", "error"), api.SpanStatusCode.ERROR],
      ["toolsift.upstream.start", startAttributes("restart", "ok"), api.SpanStatusCode.OK],
    ]);
    // the span covers the start: it began durationMs before it ended
    const [first] = spans;
    const millis = ([seconds, nanos]: [number, number]) => seconds * 1e3 + nanos / 1e6;
    expect(millis(first?.duration ?? [0, 0])).toBeCloseTo(40, 0);
    const outcomes = (await dataPoints(own.reader, "toolsift.upstream.restarts")).map(
      ([attributes, value]) => [(attributes as Attributes)["toolsift.outcome"], value],
    );
    expect(outcomes).toEqual([
      ["error", 1],
      ["ok", 1],
    ]);
    expect(await dataPoints(own.reader, "toolsift.upstream.starts")).toHaveLength(3);
  });
});

function startAttributes(kind: string, outcome: string) {
  return {
    "toolsift.server": "files",
    "toolsift.upstream.start": kind,
    "toolsift.outcome": outcome,
    "toolsift.upstream.tools": 7,
  };
}
