import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { DisclosureStrategy } from "../../src/disclosure/index.js";
import { createOpenAIChatFormatter } from "../../src/providers/openai/index.js";
import { type CallLog, createHarness, e2eTools } from "./harness.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";

function completion(calls: { id: string; name: string; arguments: unknown }[]) {
  return {
    id: "chatcmpl_1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4.1",
    choices: [
      {
        index: 0,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content: calls.length > 0 ? null : "Done.",
          tool_calls:
            calls.length > 0
              ? calls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                }))
              : undefined,
        },
      },
    ],
  };
}

type SentTool = { type: string; function: { name: string; strict?: boolean; parameters: unknown } };

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(turns: unknown[], strategy: DisclosureStrategy, log: CallLog, strict = false) {
  server = await startMockServer(turns);
  const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
  const sift = createHarness(e2eTools(log), { strategy });
  const chat = createOpenAIChatFormatter({ strict });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Go." }];
  for (let turn = 0; turn < turns.length; turn++) {
    const formatted = chat.formatTools(sift.disclosure.prepare({ session: "s" }));
    const response = await client.chat.completions.create({
      model: "gpt-4.1",
      messages: [{ role: "system", content: formatted.system }, ...messages],
      ...formatted.request,
    });
    const choice = response.choices[0];
    if (choice?.finish_reason !== "tool_calls") break;
    messages.push(choice.message);
    const outcomes = await sift.execute("s", chat.parseCalls(response));
    messages.push(...chat.formatResults(outcomes));
  }
  return server.requests;
}

const names = (body: { [key: string]: unknown }) =>
  (body.tools as SentTool[]).map((tool) => tool.function.name);

describe("OpenAI Chat Completions end to end", () => {
  it("reveal: search, the found tool is loaded on turn 2, strict nulls removed", async () => {
    const log: CallLog = [];
    const turns = [
      completion([{ id: "call_s", name: "tool_search", arguments: { queries: ["create issue"] } }]),
      completion([
        {
          id: "call_c",
          name: "github_create_issue",
          arguments: { repo: "acme/app", title: "Bug", labels: null },
        },
      ]),
      completion([]),
    ];
    const requests = await run(turns, "reveal", log, true);
    expect(requests.map((request) => request.url)).toEqual([
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/v1/chat/completions",
    ]);
    expect(names(requestBody(requests, 0))).toEqual(["tool_search", "echo"]);
    const second = requestBody(requests, 1).tools as SentTool[];
    const created = second.find((tool) => tool.function.name === "github_create_issue");
    expect(created?.function.strict).toBe(true);
    expect(created?.function.parameters).toMatchObject({
      additionalProperties: false,
      required: ["repo", "title", "labels"],
    });
    const toolMessage = (
      requestBody(requests, 1).messages as { role: string; tool_call_id?: string }[]
    ).at(-1);
    expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call_s" });
    // strict mode sent labels: null; the handler sees the call the schema describes
    expect(log).toEqual([
      { tool: "github.create_issue", args: { repo: "acme/app", title: "Bug" } },
    ]);
  });

  it("bridge: tools stay fixed and the target runs through tool_call", async () => {
    const log: CallLog = [];
    const turns = [
      completion([{ id: "call_s", name: "tool_search", arguments: { queries: ["weather"] } }]),
      completion([
        {
          id: "call_b",
          name: "tool_call",
          arguments: { name: "weather.forecast", arguments: { "city-name": "Rome" } },
        },
      ]),
      completion([]),
    ];
    const requests = await run(turns, "bridge", log);
    const first = names(requestBody(requests, 0));
    expect(first).toEqual(["tool_search", "tool_describe", "tool_call", "echo"]);
    expect(requests.map((request) => names(request.body))).toEqual([first, first, first]);
    const searchResult = (requestBody(requests, 1).messages as { content?: unknown }[]).at(-1);
    expect(String(searchResult?.content)).toContain("weather.forecast");
    expect(log).toEqual([{ tool: "weather.forecast", args: { "city-name": "Rome" } }]);
    const callResult = (
      requestBody(requests, 2).messages as { tool_call_id?: string; content?: unknown }[]
    ).at(-1);
    expect(callResult?.tool_call_id).toBe("call_b");
    expect(String(callResult?.content)).toContain('"ok":true');
  });
});
