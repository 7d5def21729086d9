/**
 * Runs each provider example's loop with the official SDK pointed at a local mock server that
 * plays the model, so the examples keep working (and keep type-checking under strict: tsc covers
 * examples/) as the API changes.
 */

import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { anthropicClient } from "../../examples/anthropic-client.js";
import { anthropicNative } from "../../examples/anthropic-native.js";
import { gemini } from "../../examples/gemini.js";
import { openaiChat } from "../../examples/openai-chat.js";
import { openaiResponses } from "../../examples/openai-responses.js";
import { type CallLog, sampleTools } from "../../examples/sample-tools.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";
import { claude, claudeDone, completion, geminiTurn, responsesTurn, toolUse } from "./replies.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ISSUE = { repo: "acme/web", title: "Login button is broken" };
const names = (tools: unknown) => (tools as { name?: string }[]).map((tool) => tool.name);

describe("provider examples against a local mock server", () => {
  it("Anthropic native search: the server search loads the tool, the loop ends with no empty user message", async () => {
    server = await startMockServer([
      claude([
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
            tool_references: [{ type: "tool_reference", tool_name: "create_issue" }],
          },
        },
        toolUse("toolu_1", "create_issue", ISSUE),
      ]),
      claudeDone,
    ]);
    const log: CallLog = [];
    const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
    const messages = await anthropicNative(client, sampleTools(log), "File the bug.");
    expect(log).toEqual([{ tool: "create_issue", args: ISSUE }]);
    const first = requestBody(server.requests, 0);
    expect((first.tools as { type?: string }[])[0]?.type).toBe("tool_search_tool_bm25_20251119");
    expect(first.system).toMatch(/^You are a helpful assistant\./);
    expect(JSON.stringify(requestBody(server.requests, 1).messages)).toContain(
      '"tool_use_id":"toolu_1"',
    );
    // end_turn: the assistant's text is last, with no empty user message after it
    expect(messages.at(-1)?.role).toBe("assistant");
    expect(messages.filter((message) => message.role === "user")).toHaveLength(2);
  });

  it("Anthropic client-side search: search, reveal, call", async () => {
    server = await startMockServer([
      claude([toolUse("toolu_1", "tool_search", { queries: ["weather forecast"] })]),
      claude([toolUse("toolu_2", "forecast", { city: "Kyoto", days: 3 })]),
      claudeDone,
    ]);
    const log: CallLog = [];
    const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
    await anthropicClient(client, sampleTools(log), "Weather in Kyoto?");
    expect(names(requestBody(server.requests, 0).tools)).not.toContain("forecast");
    expect(names(requestBody(server.requests, 1).tools)).toContain("forecast");
    expect(log).toEqual([{ tool: "forecast", args: { city: "Kyoto", days: 3 } }]);
  });

  it("OpenAI Chat: search, reveal, call, stop", async () => {
    server = await startMockServer([
      completion([{ id: "c1", name: "tool_search", arguments: { queries: ["create issue"] } }]),
      completion([{ id: "c2", name: "create_issue", arguments: ISSUE }]),
      completion([]),
    ]);
    const log: CallLog = [];
    const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const history = await openaiChat(client, sampleTools(log), "File the bug.");
    expect(log).toEqual([{ tool: "create_issue", args: ISSUE }]);
    const second = requestBody(server.requests, 1);
    const sent = (second.tools as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );
    expect(sent).toContain("create_issue");
    expect((second.messages as { role: string }[])[0]?.role).toBe("system");
    expect(history.at(-1)).toMatchObject({ role: "assistant", content: "Done." });
  });

  it("OpenAI Responses: hosted tool_search, a namespaced call, instructions carry the system text", async () => {
    server = await startMockServer([
      responsesTurn("resp_1", [
        {
          type: "tool_search_call",
          id: "ts_1",
          execution: "server",
          call_id: null,
          status: "completed",
          arguments: { paths: ["github"] },
        },
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "create_issue",
          namespace: "github",
          arguments: JSON.stringify(ISSUE),
          status: "completed",
        },
      ]),
      responsesTurn("resp_2", [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Done.", annotations: [] }],
        },
      ]),
    ]);
    const log: CallLog = [];
    const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const last = await openaiResponses(client, sampleTools(log), "File the bug.");
    expect(log).toEqual([{ tool: "create_issue", args: ISSUE }]);
    expect(last?.id).toBe("resp_2");
    const first = requestBody(server.requests, 0);
    expect(first.instructions).toMatch(/^You are a helpful assistant\./);
    expect((first.tools as { type: string }[])[0]).toEqual({ type: "tool_search" });
    const second = requestBody(server.requests, 1);
    expect(second.previous_response_id).toBe("resp_1");
    expect(second.input).toEqual([
      { type: "function_call_output", call_id: "call_1", output: expect.any(String) },
    ]);
  });

  it("Gemini: tools in config, search, reveal, call with enum values restored", async () => {
    server = await startMockServer([
      geminiTurn([{ functionCall: { name: "tool_search", args: { queries: ["weather"] } } }]),
      geminiTurn([
        { functionCall: { id: "fc_1", name: "forecast", args: { city: "Kyoto", days: "3" } } },
      ]),
      geminiTurn([{ text: "Sunny." }]),
    ]);
    const log: CallLog = [];
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
    const contents = await gemini(ai, sampleTools(log), "Weather in Kyoto?");
    expect(log).toEqual([{ tool: "forecast", args: { city: "Kyoto", days: 3 } }]);
    const first = requestBody(server.requests, 0);
    expect(first.tools).toBeDefined(); // the SDK lifts config.tools to the wire's top level
    expect(JSON.stringify(first.systemInstruction)).toContain("You are a helpful assistant.");
    const answer = (requestBody(server.requests, 2).contents as Content[]).at(-1);
    expect(answer?.parts?.[0]?.functionResponse).toMatchObject({ id: "fc_1", name: "forecast" });
    expect(contents.at(-1)?.role).toBe("model");
  });
});

describe("the examples are type-checked", () => {
  it("npm run typecheck (tsc -p .) includes examples/ under strict", () => {
    const config = JSON.parse(
      readFileSync(new URL("../../tsconfig.json", import.meta.url), "utf8"),
    );
    expect(config.include).toContain("examples");
    expect(config.compilerOptions.strict).toBe(true);
  });
});
