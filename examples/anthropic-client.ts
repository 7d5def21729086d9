/**
 * Anthropic Messages with toolsift's own search tool (client-side), for models outside Anthropic's
 * tool-search table or when you want toolsift's ranking: Claude calls `tool_search`, toolsift
 * answers and reveals the tools it found, and the next turn can call them.
 *
 *   ANTHROPIC_API_KEY=… npx tsx examples/anthropic-client.ts
 */
import Anthropic from "@anthropic-ai/sdk";
import { createToolSift, type ToolDefinition } from "../src/index.js";
import { apiKey, isMain, sampleTools } from "./sample-tools.js";

/** Runs the agent loop for one request; returns the conversation. */
export async function anthropicClient(
  client: Anthropic,
  tools: readonly ToolDefinition[],
  prompt: string,
): Promise<Anthropic.MessageParam[]> {
  const sift = createToolSift({ tools, disclosure: { mode: "on" } });
  const model = "claude-sonnet-4-0";
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
  for (let step = 0; step < 10; step++) {
    // `search: "client"` forces toolsift's search tool even for a model with native search
    const turn = sift.prepare({
      session: "example",
      provider: "anthropic",
      model,
      search: "client",
    });
    const response = await client.messages.create({
      model,
      max_tokens: 1024,
      system: ["You are a helpful assistant.", turn.system].filter(Boolean).join("\n\n"),
      messages,
      ...turn.request,
    });
    messages.push({ role: "assistant", content: response.content });
    const { results, done } = await sift.respond({
      session: "example",
      provider: "anthropic",
      response,
    });
    messages.push(...results);
    if (done) break;
  }
  return messages;
}

if (isMain(import.meta.url)) {
  const messages = await anthropicClient(
    new Anthropic({ apiKey: apiKey("ANTHROPIC_API_KEY") }),
    sampleTools(),
    "What is the weather in Kyoto for the next three days?",
  );
  console.log(JSON.stringify(messages.at(-1), null, 2));
}
