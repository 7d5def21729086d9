import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIResponsesFormatter } from "../../src/providers/openai/index.js";
import { type CallLog, createHarness, e2eTools } from "./harness.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";

function response(output: unknown[]) {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    model: "gpt-5.4",
    status: "completed",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
  };
}

const done = response([
  {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: "Done.", annotations: [] }],
  },
]);

type Sent = {
  type: string;
  name?: string;
  execution?: string;
  defer_loading?: boolean;
  tools?: Sent[];
};

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(turns: unknown[], nativeSearch: boolean, log: CallLog) {
  server = await startMockServer(turns);
  const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
  const sift = createHarness(e2eTools(log));
  const responses = createOpenAIResponsesFormatter({ model: "gpt-5.4" });
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Go." }];
  const parsed = [];
  for (let turn = 0; turn < turns.length; turn++) {
    const formatted = responses.formatTools(
      sift.disclosure.prepare({ session: "s", nativeSearch }),
    );
    const result = await client.responses.create({
      model: "gpt-5.4",
      instructions: formatted.system,
      input,
      ...formatted.request,
    });
    const calls = responses.parseCalls(result);
    parsed.push(calls);
    if (calls.length === 0) break;
    input.push(...(result.output as OpenAI.Responses.ResponseInputItem[]));
    const outcomes = await sift.execute("s", calls);
    input.push(...responses.formatResults(outcomes));
  }
  return { requests: server.requests, parsed };
}

describe("OpenAI Responses end to end", () => {
  it("native: hosted tool_search over namespaces, namespaced call mapped back", async () => {
    const log: CallLog = [];
    const turns = [
      response([
        {
          type: "tool_search_call",
          id: "ts_1",
          execution: "server",
          call_id: null,
          status: "completed",
          arguments: { paths: ["github_1"] },
        },
        {
          type: "tool_search_output",
          id: "tso_1",
          execution: "server",
          call_id: null,
          status: "completed",
          tools: [
            {
              type: "namespace",
              name: "github_1",
              description: "GitHub",
              tools: [{ type: "function", name: "github_create_issue", parameters: {} }],
            },
          ],
        },
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "github_create_issue",
          namespace: "github_1",
          arguments: '{"repo":"acme/app","title":"Bug"}',
          status: "completed",
        },
      ]),
      done,
    ];
    const { requests, parsed } = await run(turns, true, log);
    expect(requests.map((request) => request.url)).toEqual(["/v1/responses", "/v1/responses"]);
    const tools = requestBody(requests, 0).tools as Sent[];
    expect(tools[0]).toEqual({ type: "tool_search" });
    expect(tools.find((tool) => tool.name === "echo")?.defer_loading).toBeUndefined();
    const namespaces = tools.filter((tool) => tool.type === "namespace");
    expect(namespaces.map((space) => [space.name, space.tools?.length])).toEqual([
      ["github_1", 6],
      ["github_2", 5],
      ["weather", 1],
    ]);
    for (const space of namespaces) {
      expect(space.tools?.every((member) => member.defer_loading === true)).toBe(true);
      expect(space.defer_loading).toBeUndefined();
    }
    expect(parsed[0]?.map((call) => [call.kind, call.name, call.namespace])).toEqual([
      ["server_search", "tool_search", undefined],
      ["function", "github.create_issue", "github_1"],
    ]);
    expect(parsed[0]?.[0]?.native?.referenced).toEqual(["github.create_issue"]);
    expect(log).toEqual([
      { tool: "github.create_issue", args: { repo: "acme/app", title: "Bug" } },
    ]);
    const lastInput = (requestBody(requests, 1).input as { type?: string; call_id?: string }[]).at(
      -1,
    );
    expect(lastInput).toMatchObject({ type: "function_call_output", call_id: "call_1" });
    expect(JSON.stringify(requestBody(requests, 1).tools)).toBe(JSON.stringify(tools));
  });

  it("client-executed tool_search: answered with tool_search_output, then called", async () => {
    const log: CallLog = [];
    const turns = [
      response([
        {
          type: "tool_search_call",
          id: "ts_1",
          execution: "client",
          call_id: "call_s",
          status: "completed",
          arguments: { queries: ["weather forecast"] },
        },
      ]),
      response([
        {
          type: "function_call",
          id: "fc_2",
          call_id: "call_w",
          name: "weather_forecast",
          arguments: '{"city-name":"Lima","days":7}',
          status: "completed",
        },
      ]),
      done,
    ];
    const { requests, parsed } = await run(turns, false, log);
    const tools = requestBody(requests, 0).tools as (Sent & { parameters?: unknown })[];
    expect(tools.map((tool) => [tool.type, tool.name, tool.execution])).toEqual([
      ["tool_search", undefined, "client"],
      ["function", "echo", undefined],
    ]);
    expect(tools[0]?.parameters).toMatchObject({ required: ["queries"] });
    expect(parsed[0]?.map((call) => [call.kind, call.name, call.id])).toEqual([
      ["client_search", "tool_search", "call_s"],
    ]);
    const answer = (requestBody(requests, 1).input as { type?: string; tools?: Sent[] }[]).at(-1);
    expect(answer).toMatchObject({
      type: "tool_search_output",
      execution: "client",
      call_id: "call_s",
      status: "completed",
    });
    expect(answer?.tools?.map((tool) => tool.name)).toEqual(["weather_forecast"]);
    // loaded tools arrive through the conversation, so the tools array never changes
    expect(JSON.stringify(requestBody(requests, 1).tools)).toBe(JSON.stringify(tools));
    expect(log).toEqual([{ tool: "weather.forecast", args: { "city-name": "Lima", days: 7 } }]);
  });
});
