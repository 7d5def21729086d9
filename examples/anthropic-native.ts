/**
 * Anthropic Messages with native tool search: toolsift sends Anthropic's search tool and every
 * deferrable tool with `defer_loading`; Claude searches on the server and calls what it found;
 * `respond` runs the calls and returns the `tool_result` message to push (none on `end_turn`).
 *
 *   ANTHROPIC_API_KEY=… npx tsx examples/anthropic-native.ts
 */
import Anthropic from "@anthropic-ai/sdk";
import { createToolSift, type ToolDefinition } from "../src/index.js";
import { apiKey, isMain, sampleTools } from "./sample-tools.js";

/** Runs the agent loop for one request; returns the conversation. */
export async function anthropicNative(
  client: Anthropic,
  tools: readonly ToolDefinition[],
  prompt: string,
): Promise<Anthropic.MessageParam[]> {
  const sift = createToolSift({ tools, disclosure: { mode: "on" } });
  const model = "claude-sonnet-4-6"; // in Anthropic's tool-search table: native search
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
  for (let step = 0; step < 10; step++) {
    const turn = sift.prepare({
      session: "example",
      provider: "anthropic",
      model,
      system: "You are a helpful assistant.", // sent as `system`, followed by toolsift's note
    });
    const response = await client.messages.create({
      model,
      max_tokens: 1024,
      messages,
      ...turn.request, // tools, tool_choice, system
    });
    messages.push({ role: "assistant", content: response.content });
    const { results, done } = await sift.respond({
      session: "example",
      provider: "anthropic",
      response,
    });
    messages.push(...results); // empty when Claude asked for nothing
    if (done) break;
  }
  return messages;
}

if (isMain(import.meta.url)) {
  const messages = await anthropicNative(
    new Anthropic({ apiKey: apiKey("ANTHROPIC_API_KEY") }),
    sampleTools(),
    "Open an issue in acme/web titled 'Login button is broken'.",
  );
  console.log(JSON.stringify(messages.at(-1), null, 2));
}
