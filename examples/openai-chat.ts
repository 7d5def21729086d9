/**
 * OpenAI Chat Completions: no native tool search, so toolsift sends its search tool plus the tools
 * revealed so far. Chat has no system field in the request: `turn.system` goes into your system
 * message; each result is one `role: "tool"` message.
 *
 *   OPENAI_API_KEY=… npx tsx examples/openai-chat.ts
 */
import OpenAI from "openai";
import { createToolSift, type ToolDefinition } from "../src/index.js";
import { apiKey, isMain, sampleTools } from "./sample-tools.js";

/** Runs the agent loop for one request; returns the conversation. */
export async function openaiChat(
  client: OpenAI,
  tools: readonly ToolDefinition[],
  prompt: string,
): Promise<OpenAI.ChatCompletionMessageParam[]> {
  const sift = createToolSift({ tools, disclosure: { mode: "on" } });
  const model = "gpt-4.1";
  const history: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: prompt }];
  for (let step = 0; step < 10; step++) {
    const turn = sift.prepare({ session: "example", provider: "openai-chat", model });
    const system = ["You are a helpful assistant.", turn.system].filter(Boolean).join("\n\n");
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: "system", content: system }, ...history],
      ...turn.request, // tools, tool_choice
    });
    const message = completion.choices[0]?.message;
    if (message) history.push(message);
    const { results, done } = await sift.respond({
      session: "example",
      provider: "openai-chat",
      response: completion,
    });
    history.push(...results);
    if (done) break;
  }
  return history;
}

if (isMain(import.meta.url)) {
  const history = await openaiChat(
    new OpenAI({ apiKey: apiKey("OPENAI_API_KEY") }),
    sampleTools(),
    "Open an issue in acme/web titled 'Login button is broken'.",
  );
  console.log(JSON.stringify(history.at(-1), null, 2));
}
