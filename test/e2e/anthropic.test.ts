import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicFormatter } from "../../src/providers/anthropic/index.js";
import { type CallLog, createHarness, e2eTools } from "./harness.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";

function message(content: unknown[], stop: "tool_use" | "end_turn" = "tool_use") {
  return {
    id: `msg_${Math.random().toString(36).slice(2)}`,
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

const done = message([{ type: "text", text: "Done." }], "end_turn");
type Tool = { name?: string; type?: string; defer_loading?: boolean; cache_control?: unknown };

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(turns: unknown[], model: string, nativeSearch: boolean, log: CallLog) {
  server = await startMockServer(turns);
  const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
  const sift = createHarness(e2eTools(log));
  const anthropic = createAnthropicFormatter({ model });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Please do the task." }];
  const parsed = [];
  for (let turn = 0; turn < turns.length; turn++) {
    const formatted = anthropic.formatTools(
      sift.disclosure.prepare({ session: "s", nativeSearch }),
    );
    const response = await client.messages.create({
      model,
      max_tokens: 1024,
      system: formatted.system,
      messages,
      ...formatted.request,
    });
    const calls = anthropic.parseCalls(response);
    parsed.push(calls);
    if (response.stop_reason !== "tool_use") break;
    messages.push({ role: "assistant", content: response.content });
    const outcomes = await sift.execute("s", calls);
    messages.push(...anthropic.formatResults(outcomes));
  }
  return { requests: server.requests, parsed };
}

describe("Anthropic Messages end to end", () => {
  it("native: bm25 server search, defer_loading, reveal by reference, result round trip", async () => {
    const log: CallLog = [];
    const turns = [
      message([
        {
          type: "server_tool_use",
          id: "srvtoolu_1",
          name: "tool_search_tool_bm25",
          input: { query: "create issue" },
        },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: {
            type: "tool_search_tool_search_result",
            tool_references: [{ type: "tool_reference", tool_name: "github_create_issue" }],
          },
        },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "github_create_issue",
          input: { repo: "acme/app", title: "Bug" },
        },
      ]),
      done,
    ];
    const { requests, parsed } = await run(turns, "claude-sonnet-4-6", true, log);
    expect(requests.map((request) => request.url)).toEqual(["/v1/messages", "/v1/messages"]);
    const tools = requestBody(requests, 0).tools as Tool[];
    expect(tools[0]).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo?.defer_loading).toBeUndefined();
    expect(echo?.cache_control).toEqual({ type: "ephemeral" });
    const deferred = tools.filter((tool) => tool.defer_loading);
    expect(deferred).toHaveLength(12);
    expect(deferred.every((tool) => tool.cache_control === undefined)).toBe(true);
    // same tools array on every turn: deferral keeps the cache prefix
    expect(JSON.stringify(requestBody(requests, 1).tools)).toBe(JSON.stringify(tools));
    expect(parsed[0]?.map((call) => [call.kind, call.name])).toEqual([
      ["server_search", "tool_search_tool_bm25"],
      ["function", "github.create_issue"],
    ]);
    expect(parsed[0]?.[0]?.native?.referenced).toEqual(["github.create_issue"]);
    expect(log).toEqual([
      { tool: "github.create_issue", args: { repo: "acme/app", title: "Bug" } },
    ]);
    const last = (requestBody(requests, 1).messages as { role: string; content: unknown }[]).at(-1);
    const results = last?.content as { type: string; tool_use_id: string; content: unknown }[];
    expect(results.map((block) => [block.type, block.tool_use_id])).toEqual([
      ["tool_result", "toolu_1"],
    ]);
    expect(JSON.stringify(results[0]?.content)).toContain("github.create_issue");
  });

  it("client-side with tool_reference: search meta tool answers with references", async () => {
    const log: CallLog = [];
    const turns = [
      message([
        {
          type: "tool_use",
          id: "toolu_s",
          name: "tool_search",
          input: { queries: ["weather forecast"] },
        },
      ]),
      message([
        {
          type: "tool_use",
          id: "toolu_w",
          name: "weather_forecast",
          input: { "city-name": "Paris" },
        },
      ]),
      done,
    ];
    // a model in the tool-search table, prepared for client-side search (e.g. behind a gateway)
    const { requests } = await run(turns, "claude-sonnet-4-6", false, log);
    const first = requestBody(requests, 0).tools as Tool[];
    expect(first.map((tool) => tool.name).slice(0, 2)).toEqual(["tool_search", "echo"]);
    expect(first.find((tool) => tool.name === "weather_forecast")?.defer_loading).toBe(true);
    expect(first.some((tool) => tool.type?.startsWith("tool_search_tool"))).toBe(false);
    const results = (requestBody(requests, 1).messages as { content: unknown }[]).at(-1)?.content;
    expect(results).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_s",
        content: [{ type: "tool_reference", tool_name: "weather_forecast" }],
      },
    ]);
    expect(JSON.stringify(requestBody(requests, 1).tools)).toBe(JSON.stringify(first));
    expect(log).toEqual([{ tool: "weather.forecast", args: { "city-name": "Paris" } }]);
  });

  it("client-side without deferred loading: revealed tool is sent in full on turn 2", async () => {
    const log: CallLog = [];
    const turns = [
      message([
        { type: "tool_use", id: "toolu_s", name: "tool_search", input: { queries: ["weather"] } },
      ]),
      message([
        {
          type: "tool_use",
          id: "toolu_w",
          name: "weather_forecast",
          input: { "city-name": "Oslo", days: 3 },
        },
      ]),
      done,
    ];
    const { requests } = await run(turns, "claude-opus-4-1", false, log);
    const first = requestBody(requests, 0).tools as Tool[];
    expect(first.map((tool) => tool.name)).toEqual(["tool_search", "echo"]);
    expect(first.some((tool) => "defer_loading" in tool)).toBe(false);
    const second = requestBody(requests, 1).tools as (Tool & { input_schema?: unknown })[];
    const weather = second.find((tool) => tool.name === "weather_forecast");
    expect(weather?.input_schema).toMatchObject({ required: ["city-name"] });
    expect(second.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    const result = (requestBody(requests, 1).messages as { content: { content: unknown }[] }[]).at(
      -1,
    );
    expect(JSON.stringify(result?.content[0]?.content)).toContain("weather.forecast");
    expect(log).toEqual([{ tool: "weather.forecast", args: { "city-name": "Oslo", days: 3 } }]);
  });
});
