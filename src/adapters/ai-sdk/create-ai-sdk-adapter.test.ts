import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import * as aiModule from "ai";
import {
  generateText,
  type JSONSchema7,
  jsonSchema,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import { describe, expect, it, vi } from "vitest";
import { createToolSift } from "../../create-toolsift.js";
import { scriptedModel } from "./__fixtures__/scripted-model.js";
import { createAISDKAdapter } from "./index.js";

const object = <T>(properties: Record<string, JSONSchema7>, required: string[] = []) =>
  jsonSchema<T>({ type: "object", properties, required, additionalProperties: false });

/** Twenty tools of a fictional ops platform: enough for `auto` disclosure to defer them once
 * they are marked deferrable (`defer: "auto"`). */
function opsTools(spies: { readLog: () => void; deleteRepo: () => void }): ToolSet {
  const tools: ToolSet = {
    read_build_log: tool({
      description: "Read the full log of a CI build by its number.",
      inputSchema: object<{ build: number }>({ build: { type: "integer" } }, ["build"]),
      execute: async ({ build }: { build: number }) => {
        spies.readLog();
        return Array.from({ length: 4_000 }, (_, line) => `build ${build} line ${line}: ok`).join(
          "\n",
        );
      },
    }),
    delete_repository: tool({
      description: "Delete a repository permanently.",
      inputSchema: object<{ repo: string }>({ repo: { type: "string" } }, ["repo"]),
      execute: async () => {
        spies.deleteRepo();
        return "deleted";
      },
    }),
    // no execute: the app answers this one itself (a client-side tool)
    ask_user_confirmation: tool({
      description: "Ask the user to confirm a risky step.",
      inputSchema: object<{ question: string }>({ question: { type: "string" } }, ["question"]),
    }),
  };
  for (const topic of ["dns", "cdn", "queue", "cache", "billing", "quota", "alert", "secret"]) {
    tools[`get_${topic}_status`] = tool({
      description: `Get the status of the ${topic} service.`,
      inputSchema: object<Record<string, never>>({}),
      execute: async () => ({ topic, healthy: true }),
    });
    tools[`restart_${topic}`] = tool({
      description: `Restart the ${topic} service.`,
      inputSchema: object<{ force?: boolean }>({ force: { type: "boolean" } }),
      execute: async () => `${topic} restarted`,
    });
  }
  return tools;
}

async function setup() {
  const spies = { readLog: vi.fn(), deleteRepo: vi.fn() };
  const adapter = await createAISDKAdapter({
    tools: opsTools(spies),
    // the ops platform's tools stand for an MCP server's: deferred, unlike the host's own
    defer: "auto",
    toolsift: {
      disclosure: { mode: "on" },
      budget: { perToolResult: 300 },
      policy: { rules: [{ label: "safety", deny: ["delete_*"] }] },
      tokens: "estimate",
    },
  });
  return { adapter, spies };
}

const searchFor = (query: string) => () => ({
  calls: [{ name: "tool_search", input: { query } }],
});
const offeredTool = (options: LanguageModelV3CallOptions, name: string) =>
  (options.tools ?? []).some((item) => item.name === name);

// vitest.ai7.config.ts runs this file against ai@7 (Node 22) and sets TOOLSIFT_AI_MAJOR
describe("the AI SDK under test", () => {
  it("is the major version this run asked for", () => {
    const isSeven = "experimental_filterActiveTools" in aiModule; // new in ai@7
    expect(isSeven ? "7" : "6").toBe(process.env.TOOLSIFT_AI_MAJOR ?? "6");
  });
});

describe("createAISDKAdapter with generateText", () => {
  it("searches, activates the found tool next step, runs it and budgets its result", async () => {
    const { adapter, spies } = await setup();
    const session = adapter.session("chat-1");
    const { model, offered } = scriptedModel([
      searchFor("build log"),
      (options) =>
        offeredTool(options, "read_build_log")
          ? { calls: [{ name: "read_build_log", input: { build: 7 } }] }
          : { text: "the log tool never became active" },
      () => ({ text: "done" }),
    ]);
    const result = await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "Why did build 7 fail?",
    });
    expect(offered[0]).toContain("tool_search");
    expect(offered[0]).not.toContain("read_build_log");
    expect(offered[1]).toContain("read_build_log");
    expect(spies.readLog).toHaveBeenCalledOnce();
    const logResult = result.steps[1]?.toolResults[0];
    expect(logResult?.toolName).toBe("read_build_log");
    const text = String(logResult?.output);
    // 4,000 lines cut to the 300-token budget (estimate counter: 4 characters a token)
    expect(text.length).toBeLessThan(300 * 4 + 200);
    expect(text).toMatch(/build 7 line 0/);
    expect(result.text).toBe("done");
    expect(session.lastPlan()?.stats.revealed).toBe(1);
  });

  it("never activates a policy-hidden tool, and it cannot run when called by name", async () => {
    const { adapter, spies } = await setup();
    const session = adapter.session("chat-2");
    const { model, offered } = scriptedModel([
      searchFor("delete repository"),
      () => ({ calls: [{ name: "delete_repository", input: { repo: "prod" } }] }),
      () => ({ text: "gave up" }),
    ]);
    const result = await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: "Delete the prod repository.",
    });
    expect(offered.flat()).not.toContain("delete_repository");
    const search = String(result.steps[0]?.toolResults[0]?.output);
    expect(search).not.toMatch(/delete_repository/);
    const refused = result.steps[1]?.content.find((part) => part.type === "tool-error");
    expect(refused).toMatchObject({ toolName: "delete_repository" });
    expect(spies.deleteRepo).not.toHaveBeenCalled();
    // called directly (a stale tools record, a hand-written loop): the policy still refuses
    const direct = session.tools.delete_repository?.execute?.(
      { repo: "prod" },
      { toolCallId: "x", messages: [] },
    );
    await expect(direct).rejects.toThrow(/delete_repository/);
    expect(spies.deleteRepo).not.toHaveBeenCalled();
  });

  it("hands a call to a tool without execute back to the app, and keeps small outputs typed", async () => {
    const { adapter } = await setup();
    const session = adapter.session("chat-3");
    const { model } = scriptedModel([
      searchFor("dns status confirm user"),
      () => ({
        calls: [
          { name: "get_dns_status", input: {} },
          { name: "ask_user_confirmation", input: { question: "Restart DNS?" } },
        ],
      }),
    ]);
    const result = await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "Check DNS.",
    });
    const last = result.steps.at(-1);
    expect(last?.toolResults.map((item) => item.output)).toEqual([{ topic: "dns", healthy: true }]);
    expect(last?.toolCalls.map((call) => call.toolName)).toContain("ask_user_confirmation");
    expect(result.steps).toHaveLength(2); // the loop stops for the app's own tool
  });
});

describe("createAISDKAdapter with streamText", () => {
  it("emits the same tool calls as generateText", async () => {
    const script = [
      searchFor("build log"),
      () => ({ calls: [{ name: "read_build_log", input: { build: 3 } }] }),
      () => ({ text: "done" }),
    ];
    const callsOf = (steps: { toolCalls: { toolName: string; input: unknown }[] }[]) =>
      steps.flatMap((step) => step.toolCalls.map((call) => [call.toolName, call.input]));

    const generated = await setup();
    const generatedSession = generated.adapter.session("g");
    const viaGenerate = await generateText({
      model: scriptedModel(script).model,
      tools: generatedSession.tools,
      prepareStep: generatedSession.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "log 3",
    });
    const streamed = await setup();
    const streamedSession = streamed.adapter.session("s");
    const stream = streamText({
      model: scriptedModel(script).model,
      tools: streamedSession.tools,
      prepareStep: streamedSession.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "log 3",
    });
    const steps = await stream.steps;
    expect(callsOf(steps)).toEqual(callsOf(viaGenerate.steps));
    expect(callsOf(steps)).toEqual([
      ["tool_search", { query: "build log" }],
      ["read_build_log", { build: 3 }],
    ]);
    expect(String(steps[1]?.toolResults[0]?.output).length).toBeLessThan(300 * 4 + 200);
    expect(await stream.text).toBe("done");
  });
});

describe("createAISDKAdapter options", () => {
  it("marks deferred tools deferLoading for the provider's own tool search", async () => {
    const searchTool = {
      type: "provider",
      id: "anthropic.tool_search_bm25_20251119",
      args: {},
      inputSchema: jsonSchema({ type: "object" }),
    } as const;
    const adapter = await createAISDKAdapter({
      tools: opsTools({ readLog: () => {}, deleteRepo: () => {} }),
      // the ops platform's tools stand for an MCP server's: deferred, unlike the host's own
      defer: "auto",
      toolsift: {
        disclosure: { mode: "on" },
        policy: { rules: [{ label: "s", deny: ["delete_*"] }] },
      },
      nativeSearch: { provider: "anthropic", tool: searchTool as never },
    });
    const session = adapter.session("native");
    const { model } = scriptedModel([() => ({ text: "ok" })]);
    await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      prompt: "hi",
    });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    const byName = new Map(sent.map((item) => [item.name, item]));
    expect(byName.get("tool_search")).toMatchObject({ type: "provider" });
    expect(byName.has("delete_repository")).toBe(false);
    const log = byName.get("read_build_log");
    expect(log?.type === "function" && log.providerOptions).toEqual({
      anthropic: { deferLoading: true },
    });
  });

  it("uses an existing ToolSift's catalog tools under provider-safe keys, created when active", async () => {
    const sift = createToolSift({
      tools: [
        {
          name: "weather/now",
          server: "weather",
          description: "Current weather for a city.",
          inputSchema: { type: "object", properties: { city: { type: "string" } } },
          handler: (args) => `sunny in ${String(args.city)}`,
        },
      ],
      disclosure: { mode: "on" },
    });
    const adapter = await createAISDKAdapter({ sift });
    const session = adapter.session("w");
    expect(session.tools.weather_now).toBeUndefined();
    const { model, offered } = scriptedModel([
      searchFor("weather"),
      () => ({ calls: [{ name: "weather_now", input: { city: "Oslo" } }] }),
      () => ({ text: "done" }),
    ]);
    const result = await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: "weather in Oslo",
    });
    // providers take only [A-Za-z0-9_-]: the search answer names the key the model must call
    expect(String(result.steps[0]?.toolResults[0]?.output)).toMatch(/weather_now/);
    expect(String(result.steps[0]?.toolResults[0]?.output)).not.toMatch(/weather\/now/);
    expect(offered[1]).toContain("weather_now");
    expect(result.steps[1]?.toolResults[0]?.output).toBe("sunny in Oslo");
  });

  it("gives the wrapped execute the SDK's call id, messages and an abort signal", async () => {
    const seen: { toolCallId: string; messages: number; signal: boolean }[] = [];
    const adapter = await createAISDKAdapter({
      tools: {
        ping: tool({
          description: "Ping a host.",
          inputSchema: object<{ host: string }>({ host: { type: "string" } }, ["host"]),
          execute: async ({ host }, options) => {
            seen.push({
              toolCallId: options.toolCallId,
              messages: options.messages.length,
              signal: options.abortSignal instanceof AbortSignal,
            });
            return `pong from ${host}`;
          },
        }),
      },
      toolsift: { disclosure: { mode: "off" } },
    });
    const session = adapter.session("ping");
    const { model } = scriptedModel([
      () => ({ calls: [{ name: "ping", input: { host: "example.org" } }] }),
      () => ({ text: "done" }),
    ]);
    const result = await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(3),
      prompt: "ping example.org",
    });
    expect(result.steps[0]?.toolResults[0]?.output).toBe("pong from example.org");
    expect(seen).toEqual([{ toolCallId: "call-0-0", messages: 1, signal: true }]);
  });

  it("keeps a tool's own toModelOutput for whole results and sends cut ones as text", async () => {
    const adapter = await createAISDKAdapter({
      tools: {
        rows: tool({
          description: "List rows.",
          inputSchema: object<{ count: number }>({ count: { type: "integer" } }, ["count"]),
          execute: async ({ count }) => Array.from({ length: count }, (_, row) => `row ${row}`),
          toModelOutput: ({ output }) => ({ type: "text", value: `${output.length} rows` }),
        }),
      },
      toolsift: { disclosure: { mode: "off" }, budget: { perToolResult: 100 }, tokens: "estimate" },
    });
    const session = adapter.session("rows");
    const { model } = scriptedModel([
      () => ({ calls: [{ name: "rows", input: { count: 3 } }] }),
      () => ({ calls: [{ name: "rows", input: { count: 2_000 } }] }),
      () => ({ text: "done" }),
    ]);
    await generateText({
      model,
      tools: session.tools,
      prepareStep: session.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: "rows",
    });
    const sentBack = JSON.stringify(model.doGenerateCalls[2]?.prompt);
    expect(sentBack).toContain("3 rows");
    expect(sentBack).toContain("row 0");
    expect(sentBack).not.toContain("2000 rows");
  });

  it("refuses an AI SDK tool named like a tool already in the sift", async () => {
    const sift = createToolSift({
      tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object" } }],
    });
    const ping = tool({
      description: "Ping too.",
      inputSchema: object<Record<string, never>>({}),
      execute: () => "",
    });
    await expect(createAISDKAdapter({ sift, tools: { ping } })).rejects.toThrow(
      /"ping" has the same name/,
    );
  });

  it("rejects both sift and toolsift, and an empty session id, with a clear error", async () => {
    await expect(createAISDKAdapter({ sift: createToolSift(), toolsift: {} })).rejects.toThrow(
      /both `sift` and `toolsift`/,
    );
    const adapter = await createAISDKAdapter({});
    expect(() => adapter.session("")).toThrow(/non-empty string/);
  });
});
