/**
 * The user's loop through the facade alone: sift.prepare({ provider, model }) → SDK call →
 * sift.respond({ response }) → send the results back, against a local server that records requests.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createToolSift } from "../../src/index.js";
import { type CallLog, e2eTools } from "./harness.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";
import { claude, completion } from "./replies.js";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createToolSift with provider SDKs", () => {
  it("Anthropic: picks native search for a supported model and runs the loop", async () => {
    const log: CallLog = [];
    server = await startMockServer([
      claude([
        {
          type: "server_tool_use",
          id: "srvtoolu_1",
          name: "tool_search_tool_bm25",
          input: { query: "issue" },
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
          input: { repo: "a/b", title: "Bug" },
        },
      ]),
      claude([{ type: "text", text: "Done." }], "end_turn"),
    ]);
    const client = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
    const sift = createToolSift({
      tools: e2eTools(log),
      disclosure: { mode: "on" },
      tokens: "estimate",
    });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "File a bug." }];
    for (let turn = 0; turn < 2; turn++) {
      const prepared = sift.prepare({
        session: "s",
        provider: "anthropic",
        model: "claude-sonnet-4-6",
      });
      expect(prepared.mode).toBe("native");
      const response = await client.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        system: prepared.system,
        messages,
        ...prepared.request,
      });
      const outcome = await sift.respond({ session: "s", provider: "anthropic", response });
      if (outcome.done) break;
      messages.push({ role: "assistant", content: response.content });
      messages.push(...outcome.results);
    }
    expect(log).toEqual([{ tool: "github.create_issue", args: { repo: "a/b", title: "Bug" } }]);
    const tools = requestBody(server.requests, 0).tools as {
      type?: string;
      defer_loading?: boolean;
    }[];
    expect(tools[0]?.type).toBe("tool_search_tool_bm25_20251119");
    expect(tools.filter((tool) => tool.defer_loading).length).toBeGreaterThan(0);
    const last = (requestBody(server.requests, 1).messages as { content: unknown }[]).at(-1);
    expect(JSON.stringify(last?.content)).toContain("toolu_1");
  });

  it("OpenAI Chat: client-side search, reveal, then a direct call; asking respond() before prepare() fails clearly", async () => {
    const log: CallLog = [];
    server = await startMockServer([
      completion([{ id: "c1", name: "tool_search", arguments: { queries: ["create issue"] } }]),
      completion([
        { id: "c2", name: "github_create_issue", arguments: { repo: "a/b", title: "Bug" } },
      ]),
      completion([]),
    ]);
    const client = new OpenAI({ apiKey: "test", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const sift = createToolSift({
      tools: e2eTools(log),
      disclosure: { mode: "on" },
      tokens: "estimate",
    });
    await expect(
      sift.respond({ session: "s", provider: "openai-chat", response: { choices: [] } }),
    ).rejects.toThrow(/call prepare/);
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "user", content: "File a bug." },
    ];
    for (let turn = 0; turn < 3; turn++) {
      const prepared = sift.prepare({ session: "s", provider: "openai-chat", model: "gpt-4.1" });
      expect(prepared.mode).toBe("client");
      const response = await client.chat.completions.create({
        model: "gpt-4.1",
        messages: [{ role: "system", content: prepared.system }, ...messages],
        ...prepared.request,
      });
      const outcome = await sift.respond({ session: "s", provider: "openai-chat", response });
      if (outcome.done) break;
      const message = response.choices[0]?.message;
      if (message) messages.push(message);
      messages.push(...outcome.results);
    }
    const requests = server.requests;
    const toolNames = (index: number) =>
      (requestBody(requests, index).tools as { function: { name: string } }[]).map(
        (tool) => tool.function.name,
      );
    expect(toolNames(0)).not.toContain("github_create_issue");
    expect(toolNames(1)).toContain("github_create_issue");
    expect(log).toEqual([{ tool: "github.create_issue", args: { repo: "a/b", title: "Bug" } }]);
  });
});
