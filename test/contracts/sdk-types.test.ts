/**
 * Type checks: the formatters' output assigned to the official SDK parameter types (tsc --noEmit
 * covers this file), plus a runtime check that each assignment used real output.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Content,
  Tool as GeminiSDKTool,
  GenerateContentParameters,
  GenerateContentResponse,
  ToolConfig,
} from "@google/genai";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { ExecuteOutcome } from "../../src/disclosure/index.js";
import { createToolSift } from "../../src/index.js";
import { createAnthropicFormatter } from "../../src/providers/anthropic/index.js";
import { createGeminiFormatter } from "../../src/providers/gemini/index.js";
import type { UnifiedCall } from "../../src/providers/index.js";
import {
  createOpenAIChatFormatter,
  createOpenAIResponsesFormatter,
} from "../../src/providers/openai/index.js";
import { type CallLog, createHarness, e2eTools } from "../e2e/harness.js";
import { claude, completion, geminiTurn, responsesTurn, toolUse } from "../e2e/replies.js";

const sift = createHarness(e2eTools([] as CallLog));
const clientPlan = sift.disclosure.prepare({ session: "t" });
const nativePlan = sift.disclosure.prepare({ session: "t", nativeSearch: true });
const outcome: ExecuteOutcome = {
  content: [{ type: "text", text: "ok" }],
  tool: "echo",
  route: "direct",
  ran: true,
  revealed: [],
  repairs: [],
  durationMs: 1,
};
const call = (kind: UnifiedCall["kind"]): UnifiedCall => ({
  id: "call_1",
  name: "echo",
  arguments: {},
  providerName: "echo",
  kind,
});

describe("formatter output matches the official SDK types", () => {
  it("Anthropic: native and client requests, tool results", () => {
    const anthropic = createAnthropicFormatter({ model: "claude-sonnet-4-6", strict: true });
    const native = anthropic.formatTools(nativePlan, { toolChoice: "required" });
    const nativeBody: Anthropic.MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-6",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
      ...native.request,
    };
    const client = anthropic.formatTools(clientPlan, { toolChoice: { name: "echo" } });
    const clientBody: Anthropic.MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-6",
      max_tokens: 100,
      system: client.system,
      messages: [{ role: "user", content: "hi" }],
      ...client.request,
    };
    const results: Anthropic.MessageParam[] = anthropic.formatResults([
      { call: call("function"), outcome },
    ]);
    expect(nativeBody.tools?.length).toBe(14);
    expect(clientBody.tool_choice).toEqual({ type: "tool", name: "echo" });
    expect(results[0]?.content).toHaveLength(1);
  });

  it("OpenAI Chat Completions: request and tool messages", () => {
    const chat = createOpenAIChatFormatter({ strict: true, stableTools: true });
    const formatted = chat.formatTools(clientPlan);
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-4.1",
      messages: [{ role: "user", content: "hi" }],
      ...formatted.request,
    };
    const messages: OpenAI.ChatCompletionToolMessageParam[] = chat.formatResults([
      { call: call("function"), outcome },
    ]);
    expect(body.tool_choice).toMatchObject({ type: "allowed_tools" });
    expect(messages[0]?.content).toBe("ok");
  });

  it("OpenAI Responses: hosted and client tool search, result items", () => {
    const responses = createOpenAIResponsesFormatter({ model: "gpt-5.4", strict: true });
    const native = responses.formatTools(nativePlan);
    const nativeBody: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-5.4",
      input: "hi",
      ...native.request,
    };
    const client = responses.formatTools(clientPlan);
    const clientBody: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-5.4",
      input: "hi",
      ...client.request,
    };
    const items: OpenAI.Responses.ResponseInputItem[] = responses.formatResults([
      { call: call("function"), outcome },
      { call: call("client_search"), outcome },
    ]);
    expect(nativeBody.tools?.[0]).toEqual({ type: "tool_search" });
    expect(clientBody.tools?.[0]).toMatchObject({ type: "tool_search", execution: "client" });
    expect(items.map((item) => item.type)).toEqual(["function_call_output", "tool_search_output"]);
  });

  it("Gemini: config and function responses", () => {
    const gemini = createGeminiFormatter();
    const formatted = gemini.formatTools(clientPlan, {
      toolChoice: { name: "echo" },
      system: "Be brief.",
    });
    const tools: GeminiSDKTool[] = formatted.request.config.tools;
    const toolConfig: ToolConfig | undefined = formatted.request.config.toolConfig;
    const body: GenerateContentParameters = {
      model: "gemini-2.5-flash",
      contents: "hi",
      ...formatted.request,
    };
    const [content]: Content[] = gemini.formatResults([{ call: call("function"), outcome }]);
    expect(tools).toHaveLength(1);
    expect(toolConfig).toBeDefined();
    expect(body.config?.systemInstruction).toMatch(/^Be brief\./);
    expect(body.config?.toolConfig?.functionCallingConfig?.allowedFunctionNames).toEqual(["echo"]);
    expect(content?.parts?.[0]?.functionResponse?.response).toEqual({ output: "ok" });
  });
});

describe("facade turns are typed per provider (no casts)", () => {
  const sift = createToolSift({ tools: e2eTools([]), tokens: "estimate" });
  const input = { session: "types", system: "Be brief." };

  it("each request spreads into the SDK's parameters; results push onto its message lists", () => {
    const anthropic = sift.prepare({ ...input, provider: "anthropic", model: "claude-sonnet-4-6" });
    const anthropicBody: Anthropic.MessageCreateParamsNonStreaming = {
      model: "claude-sonnet-4-6",
      max_tokens: 10,
      messages: [],
      ...anthropic.request,
    };
    const chat = sift.prepare({ ...input, provider: "openai-chat", format: { strict: true } });
    const chatBody: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-4.1",
      messages: [],
      ...chat.request,
    };
    const responses = sift.prepare({ ...input, provider: "openai-responses", model: "gpt-5.4" });
    const responsesBody: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-5.4",
      ...responses.request,
    };
    const gemini = sift.prepare({
      ...input,
      provider: "gemini",
      format: { toolChoice: "required" },
    });
    const geminiBody: GenerateContentParameters = {
      model: "gemini-2.5-flash",
      contents: "hi",
      ...gemini.request,
    };
    expect(anthropicBody.system).toMatch(/^Be brief\./);
    expect(chatBody.tools?.length).toBeGreaterThan(0);
    expect(responsesBody.instructions).toMatch(/^Be brief\./);
    expect(geminiBody.config?.systemInstruction).toMatch(/^Be brief\./);
  });

  it("respond takes the SDK's response type and returns SDK-shaped results", async () => {
    // each assignment fails to compile if a provider's types drift from its SDK; the calls below
    // then run one echo call per provider through them
    const typed = async (
      message: Anthropic.Message,
      completion: OpenAI.ChatCompletion,
      response: OpenAI.Responses.Response,
      generated: GenerateContentResponse,
    ) => {
      const a: Anthropic.MessageParam[] = (
        await sift.respond({ session: "t", provider: "anthropic", response: message })
      ).results;
      const c: OpenAI.ChatCompletionMessageParam[] = (
        await sift.respond({ session: "t", provider: "openai-chat", response: completion })
      ).results;
      const r: OpenAI.Responses.ResponseInputItem[] = (
        await sift.respond({ session: "t", provider: "openai-responses", response })
      ).results;
      const g: Content[] = (
        await sift.respond({ session: "t", provider: "gemini", response: generated })
      ).results;
      return [a, c, r, g];
    };
    const echo = { text: "hi" };
    for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const)
      sift.prepare({ session: "t", provider });
    const [a, c, r, g] = await typed(
      claude([toolUse("toolu_1", "echo", echo)]) as Anthropic.Message,
      completion([{ id: "call_1", name: "echo", arguments: echo }]) as OpenAI.ChatCompletion,
      responsesTurn("resp_1", [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_2",
          name: "echo",
          arguments: JSON.stringify(echo),
          status: "completed",
        },
      ]) as unknown as OpenAI.Responses.Response,
      geminiTurn([{ functionCall: { name: "echo", args: echo } }]) as GenerateContentResponse,
    );
    expect(a).toMatchObject([
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1" }] },
    ]);
    expect(c).toMatchObject([{ role: "tool", tool_call_id: "call_1" }]);
    expect(r).toMatchObject([{ type: "function_call_output", call_id: "call_2" }]);
    expect(g).toMatchObject([{ parts: [{ functionResponse: { name: "echo" } }] }]);
  });
});
