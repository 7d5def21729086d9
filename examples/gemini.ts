/**
 * Gemini (`@google/genai`): no native tool search, so toolsift sends its search tool plus the
 * tools revealed so far. Gemini takes tools (and system text) in `config`: the request fragment is
 * `{ config: { tools, toolConfig, systemInstruction } }`; merge your own config into it. Renamed
 * properties and stringified enums are mapped back before a handler runs.
 *
 *   GEMINI_API_KEY=… npx tsx examples/gemini.ts
 */
import { type Content, GoogleGenAI } from "@google/genai";
import { createToolSift, type ToolDefinition } from "../src/index.js";
import { apiKey, isMain, sampleTools } from "./sample-tools.js";

/** Runs the agent loop for one request; returns the conversation. */
export async function gemini(
  ai: GoogleGenAI,
  tools: readonly ToolDefinition[],
  prompt: string,
): Promise<Content[]> {
  const sift = createToolSift({ tools, disclosure: { mode: "on" } });
  const model = "gemini-2.5-flash";
  const contents: Content[] = [{ role: "user", parts: [{ text: prompt }] }];
  for (let step = 0; step < 10; step++) {
    const turn = sift.prepare({
      session: "example",
      provider: "gemini",
      system: "You are a helpful assistant.", // sent as config.systemInstruction
    });
    const response = await ai.models.generateContent({
      model,
      contents,
      config: { temperature: 0, ...turn.request.config },
    });
    const content = response.candidates?.[0]?.content;
    if (content) contents.push(content);
    const { results, done } = await sift.respond({
      session: "example",
      provider: "gemini",
      response,
    });
    contents.push(...results);
    if (done) break;
  }
  return contents;
}

if (isMain(import.meta.url)) {
  const contents = await gemini(
    new GoogleGenAI({ apiKey: apiKey("GEMINI_API_KEY") }),
    sampleTools(),
    "What is the weather in Kyoto for the next three days?",
  );
  console.log(JSON.stringify(contents.at(-1), null, 2));
}
