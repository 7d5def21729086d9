/**
 * The demo's round trips: the official Anthropic and OpenAI SDKs pointed at a local mock server
 * that plays the model, so the loop runs offline. The mock answers are scripted; everything on
 * our side (request fragments, tool search, dispatch through `onCall`, results) is real.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ToolDefinition, ToolSift } from "../src/index.js";
import { startMockServer } from "../test/e2e/mock-server.js";

export const GOAL = "Open an issue in acme/app titled 'Login fails on Safari'.";
export const ISSUE = { owner: "acme", repo: "app", title: "Login fails on Safari" };

interface SentTool {
  name?: string;
  description?: string;
  function?: { name: string; description?: string };
  /** A Responses namespace's tools, or a Gemini tool's declarations. */
  tools?: SentTool[];
  functionDeclarations?: SentTool[];
}

/** The name (and Responses namespace) a provider request uses for a catalog tool, found by its
 * description: names with `/` are mapped per provider, and Responses groups tools by server. */
export function sentTool(
  tools: readonly unknown[],
  description: string,
): { name: string; namespace?: string } {
  for (const tool of tools as SentTool[]) {
    if (tool.description === description && tool.name) return { name: tool.name };
    if (tool.function?.description === description) return { name: tool.function.name };
    const inner = tool.tools ?? tool.functionDeclarations;
    if (!inner) continue;
    try {
      const found = sentTool(inner, description);
      return tool.tools && tool.name ? { ...found, namespace: tool.name } : found;
    } catch {
      // not in this group
    }
  }
  throw new Error("the target tool is not in the request");
}

/** Runs one round trip against a fresh mock server that plays the model from `script`, for the
 * tool the demo's request needs (`target`). */
export async function mockRoundTrip(
  sift: ToolSift,
  run: (target: ToolDefinition, script: unknown[], url: string) => Promise<void>,
): Promise<void> {
  const target = sift.search("create a github issue", { limit: 1 }).hits[0]?.tool;
  if (!target) return;
  const script: unknown[] = [];
  const server = await startMockServer(script);
  try {
    await run(target, script, server.url);
  } finally {
    await server.close();
  }
}

function sentName(tools: readonly unknown[], description: string): string {
  return sentTool(tools, description).name;
}

function anthropicMessage(content: unknown[], stop: "tool_use" | "end_turn") {
  return {
    id: "msg_demo",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

/** Anthropic with native tool search: Claude searches the deferred tools itself, then calls one. */
export async function roundTripAnthropic(sift: ToolSift): Promise<void> {
  await mockRoundTrip(sift, async (target, script, url) => {
    const client = new Anthropic({ apiKey: "demo", baseURL: url, maxRetries: 0 });
    const session = "demo-anthropic";
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: GOAL }];
    for (let step = 0; step < 3; step++) {
      const turn = sift.prepare({ session, provider: "anthropic", model: "claude-sonnet-4-6" });
      const name = sentName(turn.tools, target.description);
      script.push(
        step === 0
          ? anthropicMessage(
              [
                {
                  type: "server_tool_use",
                  id: "srvtoolu_1",
                  name: "tool_search_tool_bm25",
                  input: { query: "create github issue" },
                },
                {
                  type: "tool_search_tool_result",
                  tool_use_id: "srvtoolu_1",
                  content: {
                    type: "tool_search_tool_search_result",
                    tool_references: [{ type: "tool_reference", tool_name: name }],
                  },
                },
                {
                  type: "tool_use",
                  id: "toolu_1",
                  name,
                  input: ISSUE,
                },
              ],
              "tool_use",
            )
          : anthropicMessage([{ type: "text", text: "Done: the issue is open." }], "end_turn"),
      );
      const response = await client.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 1024,
        system: turn.system,
        messages,
        ...turn.request,
      });
      const { outcomes, results, done } = await sift.respond({
        session,
        provider: "anthropic",
        response,
      });
      if (step === 0) {
        console.log(
          `Anthropic: sent ${turn.tools.length} tools (${turn.plan.deferred.length} deferred); Claude searched and called:`,
        );
      }
      for (const { outcome } of outcomes) {
        console.log(
          `  ${outcome.tool} ran (${outcome.route}) → ${JSON.stringify(outcome.content[0]).slice(0, 90)}…`,
        );
      }
      if (done) {
        const text = response.content.find((block) => block.type === "text");
        console.log(`  Claude: ${text && "text" in text ? text.text : "(no text)"}\n`);
        break;
      }
      messages.push({ role: "assistant", content: response.content });
      messages.push(...results);
    }
  });
}

function chatCompletion(call: { name: string; arguments: unknown } | undefined) {
  return {
    id: "chatcmpl_demo",
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1",
    choices: [
      {
        index: 0,
        finish_reason: call ? "tool_calls" : "stop",
        message: {
          role: "assistant",
          content: call ? null : "Done: the issue is open.",
          ...(call
            ? {
                tool_calls: [
                  {
                    id: "call_1",
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                  },
                ],
              }
            : {}),
        },
      },
    ],
  };
}

/** OpenAI Chat with toolsift's search tool: search, the found tool is sent next turn, then called. */
export async function roundTripOpenAIChat(sift: ToolSift): Promise<void> {
  await mockRoundTrip(sift, async (target, script, url) => {
    const client = new OpenAI({ apiKey: "demo", baseURL: `${url}/v1`, maxRetries: 0 });
    const session = "demo-openai";
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: GOAL }];
    for (let step = 0; step < 4; step++) {
      const turn = sift.prepare({ session, provider: "openai-chat", model: "gpt-4.1" });
      const call =
        step === 0
          ? { name: "tool_search", arguments: { queries: ["create github issue"] } }
          : step === 1
            ? {
                name: sentName(turn.tools, target.description),
                arguments: ISSUE,
              }
            : undefined;
      script.push(chatCompletion(call));
      const response = await client.chat.completions.create({
        model: "gpt-4.1",
        messages: [{ role: "system", content: turn.system }, ...messages],
        ...turn.request,
      });
      const { outcomes, results, done } = await sift.respond({
        session,
        provider: "openai-chat",
        response,
      });
      console.log(
        `OpenAI Chat turn ${step + 1}: sent ${turn.tools.length} tool(s): ${turn.plan.metaTools
          .map((tool) => tool.name)
          .concat(turn.plan.loaded.map((tool) => tool.name))
          .join(", ")}`,
      );
      for (const { outcome } of outcomes) {
        const detail =
          outcome.revealed.length > 0
            ? `found ${outcome.revealed.join(", ")}`
            : JSON.stringify(outcome.content[0]).slice(0, 80);
        console.log(`  ${outcome.tool} ran → ${detail}`);
      }
      if (done) {
        console.log(`  GPT: ${response.choices[0]?.message.content}`);
        break;
      }
      const message = response.choices[0]?.message;
      if (message) messages.push(message);
      messages.push(...results);
    }
  });
}
