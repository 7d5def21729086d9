import { type Content, GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";
import { createGeminiFormatter } from "../../src/providers/gemini/index.js";
import { type CallLog, createHarness, e2eTools } from "./harness.js";
import { type MockServer, requestBody, startMockServer } from "./mock-server.js";

function reply(parts: unknown[]) {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  };
}

type Declaration = { name: string; parameters?: { properties?: Record<string, unknown> } };

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Gemini end to end", () => {
  it("client-side reveal with a property rename and enum round trip", async () => {
    const log: CallLog = [];
    const turns = [
      reply([{ functionCall: { name: "tool_search", args: { queries: ["weather forecast"] } } }]),
      reply([
        {
          functionCall: {
            id: "fc_9",
            name: "weather_forecast",
            args: { city_name: "Kyoto", days: "3" },
          },
        },
      ]),
      reply([{ text: "Done." }]),
    ];
    server = await startMockServer(turns);
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
    const sift = createHarness(e2eTools(log));
    const gemini = createGeminiFormatter();
    const contents: Content[] = [{ role: "user", parts: [{ text: "Weather in Kyoto?" }] }];
    for (let turn = 0; turn < turns.length; turn++) {
      const formatted = gemini.formatTools(sift.disclosure.prepare({ session: "s" }));
      const response = await ai.models.generateContent({
        model: "gemini-2.5-flash",
        contents,
        config: { systemInstruction: formatted.system, ...formatted.request.config },
      });
      const calls = gemini.parseCalls(response);
      if (calls.length === 0) break;
      const content = response.candidates?.[0]?.content;
      if (content) contents.push(content);
      contents.push(...gemini.formatResults(await sift.execute("s", calls)));
    }
    const requests = server.requests;
    expect(requests.map((request) => request.url)).toEqual([
      "/v1beta/models/gemini-2.5-flash:generateContent",
      "/v1beta/models/gemini-2.5-flash:generateContent",
      "/v1beta/models/gemini-2.5-flash:generateContent",
    ]);
    const declarations = (body: { [key: string]: unknown }) =>
      (body.tools as { functionDeclarations: Declaration[] }[])[0]?.functionDeclarations ?? [];
    expect(declarations(requestBody(requests, 0)).map((entry) => entry.name)).toEqual([
      "tool_search",
      "echo",
    ]);
    const weather = declarations(requestBody(requests, 1)).find(
      (entry) => entry.name === "weather_forecast",
    );
    // the SDK upper-cases Schema types on the way out (toolsift sends "string", also accepted)
    expect(weather?.parameters?.properties).toEqual({
      city_name: { type: "STRING", description: "City to forecast." },
      days: { type: "INTEGER", enum: ["1", "3", "7"], format: "enum" },
    });
    const answer = (requestBody(requests, 1).contents as Content[]).at(-1);
    expect(answer?.role).toBe("user");
    const response = answer?.parts?.[0]?.functionResponse;
    expect(response?.name).toBe("tool_search");
    expect(response?.id).toBeUndefined();
    expect(JSON.stringify(response?.response)).toContain("weather.forecast");
    // Gemini saw city_name and "3"; the tool gets its own names and values back
    expect(log).toEqual([{ tool: "weather.forecast", args: { "city-name": "Kyoto", days: 3 } }]);
    const second = (requestBody(requests, 2).contents as Content[]).at(-1)?.parts?.[0]
      ?.functionResponse;
    expect(second).toMatchObject({ id: "fc_9", name: "weather_forecast" });
  });
});
