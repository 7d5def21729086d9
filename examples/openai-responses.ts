/**
 * OpenAI Responses: gpt-5.4 and later get the hosted `tool_search` over deferred namespaces (one
 * per server); older models get toolsift's search tool. Responses takes system text in
 * `instructions`: pass `system` to `prepare` and the request carries it there. Results are input
 * items for the next request, chained with `previous_response_id`.
 *
 *   OPENAI_API_KEY=… npx tsx examples/openai-responses.ts
 */
import OpenAI from "openai";
import { createToolSift, type ToolDefinition } from "../src/index.js";
import { apiKey, isMain, sampleTools } from "./sample-tools.js";

/** Runs the agent loop for one request; returns the last response. */
export async function openaiResponses(
  client: OpenAI,
  tools: readonly ToolDefinition[],
  prompt: string,
): Promise<OpenAI.Responses.Response | undefined> {
  const sift = createToolSift({ tools, disclosure: { mode: "on" } });
  const model = "gpt-5.4";
  let input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: prompt }];
  let previous: string | undefined;
  let response: OpenAI.Responses.Response | undefined;
  for (let step = 0; step < 10; step++) {
    const turn = sift.prepare({
      session: "example",
      provider: "openai-responses",
      model,
      system: "You are a helpful assistant.", // sent as `instructions`
    });
    response = await client.responses.create({
      model,
      input,
      ...(previous ? { previous_response_id: previous } : {}),
      ...turn.request, // tools, tool_choice, instructions
    });
    const { results, done } = await sift.respond({
      session: "example",
      provider: "openai-responses",
      response,
    });
    if (done) break;
    previous = response.id;
    input = results; // function_call_output / tool_search_output items
  }
  return response;
}

if (isMain(import.meta.url)) {
  const response = await openaiResponses(
    new OpenAI({ apiKey: apiKey("OPENAI_API_KEY") }),
    sampleTools(),
    "Open an issue in acme/web titled 'Login button is broken'.",
  );
  console.log(response?.output_text);
}
