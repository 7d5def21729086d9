/**
 * The gateway's span tree and metrics over real upstreams (test/fixtures/mcp/fault-server.mjs
 * over stdio, and an HTTP server that refuses connections), read with the SDK's in-memory
 * exporter and a metric reader: a listing, a search, a call cut by the budget, a failing
 * upstream, a crash and the restart it causes, and a session opened then closed.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as api from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpillStore } from "../../budget/index.js";
import { createMCPToolSift, type MCPToolSift } from "../create-mcp-toolsift.js";
import { createGatewaySession } from "../serve/gateway-session.js";
import { dataPoints, memoryOtel, metricNames, orphans, spanTree } from "./__tests__/memory-otel.js";
import { createGatewayTelemetry, type OpenTelemetryAPI } from "./gateway-telemetry.js";

// the real module fits the structural subset the gateway takes (what `--otel` loads)
const _real: OpenTelemetryAPI = api;

const faultServer = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../test/fixtures/mcp/fault-server.mjs",
);
/** Appears only in arguments (and so in the echoed result): never in what is recorded. */
const SECRET = "upstream-argument-e81b";

const many = Array.from({ length: 40 }, (_, index) => ({
  name: `report_${index}`,
  description: `Builds report ${index} of the quarterly figures for one region and one team.`,
  inputSchema: {
    type: "object",
    properties: { region: { type: "string" }, team: { type: "string" } },
  },
}));

const { otel, exporter, reader } = memoryOtel();
const telemetry = createGatewayTelemetry(otel);
let sift: MCPToolSift;
let client: Client;
/** Every span taken so far, for the scan for arguments. */
const recorded: ReadableSpan[] = [];

beforeAll(async () => {
  sift = await createMCPToolSift({
    servers: {
      fault: { command: "node", args: [faultServer] },
      // port 9 (discard) refuses on loopback: every call fails to reach it. Its known tools
      // are enough that deferring them saves more than the meta tools cost
      remote: {
        url: "http://127.0.0.1:9/mcp",
        lazy: true,
        tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object" } }, ...many],
      },
    },
    budget: { perToolResult: 100, spill: createSpillStore() },
    log: () => undefined,
  });
  telemetry.watchUpstreams(sift);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createGatewaySession("spans", { sift, mode: "bridge", telemetry }).connect(serverSide);
  client = new Client({ name: "otel-upstream-test", version: "1" });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await sift?.close();
});

/** The spans finished since the last reset, then a reset. */
function take(): ReadableSpan[] {
  const spans = exporter.getFinishedSpans();
  exporter.reset();
  recorded.push(...spans);
  return spans;
}

const named = (spans: ReadableSpan[], name: string) => spans.find((span) => span.name === name);

describe("gateway spans over real upstreams", () => {
  it("a listing: a span per tools/list with what deferral saved", async () => {
    exporter.reset();
    const listed = await client.listTools();
    const [span] = take();
    expect(span?.name).toBe("toolsift.tools/list");
    expect(span?.attributes).toMatchObject({
      "toolsift.mode": "bridge",
      "toolsift.listed": listed.tools.length,
    });
    expect(span?.attributes["toolsift.deferred"]).toBeGreaterThan(0);
    expect(span?.attributes["toolsift.tokens_saved"]).toBeGreaterThan(0);
  });

  it("a search: the request span with the search as its child", async () => {
    await client.callTool({ name: "tool_search", arguments: { queries: ["echo text", SECRET] } });
    const spans = take();
    expect(spanTree(spans)).toEqual(["toolsift.tool_search", "  toolsift.search"]);
    expect(named(spans, "toolsift.search")?.attributes).toMatchObject({
      "toolsift.search.queries": 2,
    });
    expect(named(spans, "toolsift.search")?.attributes["toolsift.search.results"]).toBeGreaterThan(
      0,
    );
  });

  it("a call: the upstream call and the result budget as children of the request span", async () => {
    await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__echo", arguments: { text: `${SECRET} `.repeat(200) } },
    });
    const spans = take();
    expect(spanTree(spans)).toEqual([
      "toolsift.tools/call",
      "  toolsift.upstream.call",
      "  toolsift.result_budget",
    ]);
    expect(orphans(spans)).toEqual([]);
    const request = named(spans, "toolsift.tools/call");
    const upstream = named(spans, "toolsift.upstream.call");
    // one trace: the children carry the request span's trace id
    expect(upstream?.spanContext().traceId).toBe(request?.spanContext().traceId);
    expect(request?.kind).toBe(api.SpanKind.SERVER);
    expect(upstream?.kind).toBe(api.SpanKind.CLIENT);
    expect(upstream?.attributes).toEqual({
      "toolsift.server": "fault",
      "toolsift.upstream.tool": "echo",
      "toolsift.outcome": "ok",
    });
    expect(named(spans, "toolsift.result_budget")?.attributes).toMatchObject({
      "toolsift.truncated": true,
      "toolsift.spilled": true,
      "toolsift.result_tokens.limit": 100,
    });
    expect(request?.attributes).toMatchObject({
      "toolsift.tool": "fault__echo",
      "toolsift.server": "fault",
      "toolsift.mode": "bridge",
      "toolsift.route": "bridge",
      "toolsift.revealed": 0,
      "toolsift.truncated": true,
    });
    expect(request?.attributes["toolsift.result_tokens.before"]).toBeGreaterThan(
      Number(request?.attributes["toolsift.result_tokens.after"]),
    );
  });

  it("a failing upstream: the upstream call span and the request span say why", async () => {
    const failed = await client.callTool({
      name: "tool_call",
      arguments: { name: "remote__ping", arguments: { note: SECRET } },
    });
    expect(failed.isError).toBe(true);
    const spans = take();
    expect(spanTree(spans)).toEqual([
      // the lazy server's first start, tried by the call: a trace of its own
      "toolsift.upstream.start",
      "toolsift.tools/call",
      "  toolsift.upstream.call",
      "  toolsift.result_budget",
    ]);
    expect(named(spans, "toolsift.upstream.start")?.attributes).toMatchObject({
      "toolsift.server": "remote",
      "toolsift.upstream.start": "start",
      "toolsift.outcome": "error",
    });
    const upstream = named(spans, "toolsift.upstream.call");
    expect(upstream?.status).toEqual({
      code: api.SpanStatusCode.ERROR,
      message: "upstream_unavailable",
    });
    expect(upstream?.attributes).toMatchObject({
      "toolsift.server": "remote",
      "toolsift.outcome": "error",
      "toolsift.error_code": "upstream_unavailable",
    });
    expect(named(spans, "toolsift.tools/call")?.attributes).toMatchObject({
      "toolsift.outcome": "error",
      "toolsift.error_code": "upstream_unavailable",
    });
  });

  it("a crash, then the restart the next call causes: counted as a restart", async () => {
    const crashed = await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__crash", arguments: {} },
    });
    expect(crashed.isError).toBe(true);
    expect(named(take(), "toolsift.upstream.call")?.attributes["toolsift.error_code"]).toBe(
      "upstream_closed",
    );
    await client.callTool({
      name: "tool_call",
      arguments: { name: "fault__echo", arguments: { text: "again" } },
    });
    const start = named(take(), "toolsift.upstream.start");
    expect(start?.attributes).toMatchObject({
      "toolsift.server": "fault",
      "toolsift.upstream.start": "restart",
      "toolsift.outcome": "ok",
    });
    expect(await dataPoints(reader, "toolsift.upstream.restarts")).toEqual([
      [{ "toolsift.server": "fault", "toolsift.outcome": "ok" }, 1],
    ]);
  });

  it("every metric the gateway records, the sessions gauge, and no argument anywhere", async () => {
    const sessions = () => dataPoints(reader, "toolsift.sessions");
    expect(await sessions()).toEqual([[{ "toolsift.mode": "bridge" }, 1]]);
    expect(await metricNames(reader)).toEqual([
      "toolsift.call.duration",
      "toolsift.call.errors",
      "toolsift.calls",
      "toolsift.results.tokens_saved",
      "toolsift.results.truncated",
      "toolsift.search.results",
      "toolsift.sessions",
      "toolsift.turn.tokens_saved",
      "toolsift.upstream.duration",
      "toolsift.upstream.restarts",
      "toolsift.upstream.starts",
    ]);
    const { resourceMetrics } = await reader.collect();
    expect(JSON.stringify(resourceMetrics.scopeMetrics)).not.toContain(SECRET);
    take();
    const spans = recorded.map((span) => [span.name, span.attributes, span.events, span.status]);
    expect(spans.length).toBeGreaterThan(10);
    expect(JSON.stringify(spans)).not.toContain(SECRET);
    // a second session opens and closes: the gauge follows
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createGatewaySession("second", { sift, mode: "reveal", telemetry }).connect(serverSide);
    const second = new Client({ name: "otel-second", version: "1" });
    await second.connect(clientSide);
    expect(await sessions()).toEqual([
      [{ "toolsift.mode": "bridge" }, 1],
      [{ "toolsift.mode": "reveal" }, 1],
    ]);
    await second.close();
    expect(await sessions()).toEqual([
      [{ "toolsift.mode": "bridge" }, 1],
      [{ "toolsift.mode": "reveal" }, 0],
    ]);
  });
});
