/**
 * The demo's OpenAI Responses and Gemini round trips: the official SDKs pointed at a local mock
 * server that plays the model (scripted answers; everything on our side is real), like the
 * Anthropic and OpenAI Chat ones in `demo-round-trips.ts`.
 */
import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ToolSift } from "../src/index.js";
import { GOAL, ISSUE, mockRoundTrip, sentTool } from "./demo-round-trips.js";

function responsesTurn(id: string, output: unknown[]) {
  return { id, object: "response", created_at: 0, model: "gpt-5.4", status: "completed", output };
}

function preview(content: unknown): string {
  return `${JSON.stringify(content).slice(0, 80)}…`;
}

/** OpenAI Responses on gpt-5.4: the hosted tool_search opens a server's namespace, then the model
 * calls a tool in it; the result goes back as an input item chained with previous_response_id. */
export async function roundTripOpenAIResponses(sift: ToolSift): Promise<void> {
  await mockRoundTrip(sift, async (target, script, url) => {
    const client = new OpenAI({ apiKey: "demo", baseURL: `${url}/v1`, maxRetries: 0 });
    const session = "demo-responses";
    const model = "gpt-5.4";
    let input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: GOAL }];
    let previous: string | undefined;
    for (let step = 0; step < 3; step++) {
      const turn = sift.prepare({ session, provider: "openai-responses", model });
      const { name, namespace } = sentTool(turn.tools, target.description);
      script.push(
        step === 0
          ? responsesTurn("resp_1", [
              {
                type: "tool_search_call",
                id: "ts_1",
                execution: "server",
                call_id: null,
                status: "completed",
                arguments: { paths: [namespace] },
              },
              {
                type: "function_call",
                id: "fc_1",
                call_id: "call_1",
                name,
                ...(namespace ? { namespace } : {}),
                arguments: JSON.stringify(ISSUE),
                status: "completed",
              },
            ])
          : responsesTurn("resp_2", [
              {
                type: "message",
                id: "msg_1",
                role: "assistant",
                status: "completed",
                content: [
                  { type: "output_text", text: "Done: the issue is open.", annotations: [] },
                ],
              },
            ]),
      );
      const response = await client.responses.create({
        model,
        input,
        ...(previous ? { previous_response_id: previous } : {}),
        ...turn.request,
      });
      const { outcomes, results, done } = await sift.respond({
        session,
        provider: "openai-responses",
        response,
      });
      if (step === 0) {
        const groups = turn.tools.filter((tool) => tool.type === "namespace").length;
        console.log(
          `OpenAI Responses (gpt-5.4): ${turn.mode} search over ${groups} namespaces (tools grouped by server); the model opened ${namespace} and called:`,
        );
      }
      for (const { outcome } of outcomes) {
        console.log(`  ${outcome.tool} ran (${outcome.route}) → ${preview(outcome.content[0])}`);
      }
      if (done) {
        console.log(`  GPT: ${response.output_text}\n`);
        break;
      }
      previous = response.id;
      input = results;
    }
  });
}

function geminiTurn(parts: unknown[]) {
  return { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] };
}

/** Gemini: toolsift's search tool in `config.tools`; the found tool is declared from the next
 * turn on and called. */
export async function roundTripGemini(sift: ToolSift): Promise<void> {
  await mockRoundTrip(sift, async (target, script, url) => {
    const ai = new GoogleGenAI({ apiKey: "demo", httpOptions: { baseUrl: url } });
    const session = "demo-gemini";
    const contents: Content[] = [{ role: "user", parts: [{ text: GOAL }] }];
    for (let step = 0; step < 4; step++) {
      const turn = sift.prepare({ session, provider: "gemini", model: "gemini-2.5-flash" });
      const call =
        step === 0
          ? { name: "tool_search", args: { queries: ["create github issue"] } }
          : step === 1
            ? { id: "fc_1", name: sentTool(turn.tools, target.description).name, args: ISSUE }
            : undefined;
      script.push(
        geminiTurn([call ? { functionCall: call } : { text: "Done: the issue is open." }]),
      );
      const response = await ai.models.generateContent({
        model: "gemini-2.5-flash",
        contents,
        config: { ...turn.request.config },
      });
      const content = response.candidates?.[0]?.content;
      if (content) contents.push(content);
      const { outcomes, results, done } = await sift.respond({
        session,
        provider: "gemini",
        response,
      });
      const declared = turn.plan.metaTools.length + turn.plan.loaded.length;
      console.log(`Gemini turn ${step + 1}: declared ${declared} function(s)`);
      for (const { outcome } of outcomes) {
        const detail =
          outcome.revealed.length > 0
            ? `found ${outcome.revealed.join(", ")}`
            : preview(outcome.content[0]);
        console.log(`  ${outcome.tool} ran → ${detail}`);
      }
      if (done) {
        console.log(`  Gemini: ${response.text}`);
        break;
      }
      contents.push(...results);
    }
  });
}
