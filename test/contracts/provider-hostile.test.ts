/**
 * What a model response can send through `respond`: prototype keys in arguments, odd call ids,
 * images in results, and arbitrary JSON (fuzzed). Nothing throws after a handler ran, no call goes
 * unanswered, and no base64 image reaches a provider as text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/catalog/index.js";
import { createToolSift } from "../../src/index.js";
import { PROVIDERS, type ProviderId } from "../../src/providers/index.js";

const PNG = "iVBORw0KGgo".repeat(4_000); // ~44 KB of base64: as text, ~30k tokens

function siftWith(seen: unknown[]) {
  const tools: ToolDefinition[] = [
    {
      name: "deploy",
      description: "Deploy a service.",
      inputSchema: {
        type: "object",
        // "dry-run" is renamed for Gemini, so its arguments go through the restorer
        properties: {
          name: { type: "string" },
          force: { type: "boolean" },
          "dry-run": { type: "boolean" },
        },
        required: ["name"],
      },
      handler: (args) => {
        seen.push({ handlerForce: args.force, name: args.name });
        return { content: [{ type: "text", text: "deployed" }] };
      },
    },
    {
      name: "screenshot",
      description: "Take a screenshot.",
      inputSchema: { type: "object", properties: {} },
      handler: () => ({
        content: [
          { type: "text", text: "here it is" },
          { type: "image", mimeType: "image/png", data: PNG },
          { type: "audio", mimeType: "audio/wav", data: PNG },
        ],
      }),
    },
  ];
  return createToolSift({
    tools,
    tokens: "estimate",
    disclosure: {
      mode: "off",
      hooks: {
        before: [
          (event) => {
            seen.push({ hookForce: event.arguments.force });
            return undefined;
          },
        ],
      },
    },
    budget: { perToolResult: 4_000 },
  });
}

// malformed on purpose: typed loosely, passed to respond as the SDK's response would be
const chatCall = (name: string, args: string, id: unknown = "c1") =>
  ({
    choices: [
      { message: { tool_calls: [{ id, type: "function", function: { name, arguments: args } }] } },
    ],
  }) as never;

describe("prototype keys in model arguments", () => {
  const hostile =
    '{"name":"x","__proto__":{"force":true},"constructor":{"prototype":{"force":true}}}';

  it("OpenAI strict: neither the before-hook nor the handler sees an inherited force", async () => {
    const seen: unknown[] = [];
    const sift = siftWith(seen);
    const turn = sift.prepare({ session: "s", provider: "openai-chat", format: { strict: true } });
    expect(turn.tools.find((tool) => tool.function.name === "deploy")?.function.strict).toBe(true);
    const outcome = await sift.respond({
      session: "s",
      provider: "openai-chat",
      response: chatCall("deploy", hostile),
    });
    expect(seen).toEqual([{ hookForce: undefined }, { handlerForce: undefined, name: "x" }]);
    expect(outcome.results).toHaveLength(1);
    expect(({} as { force?: unknown }).force).toBeUndefined();
  });

  it("Gemini: the restored arguments keep their prototype", async () => {
    const seen: unknown[] = [];
    const sift = siftWith(seen);
    sift.prepare({ session: "s", provider: "gemini" });
    const args = JSON.parse(hostile) as unknown;
    await sift.respond({
      session: "s",
      provider: "gemini",
      response: {
        candidates: [{ content: { parts: [{ functionCall: { name: "deploy", args } }] } }],
      },
    });
    expect(seen).toEqual([{ hookForce: undefined }, { handlerForce: undefined, name: "x" }]);
  });
});

describe("call ids the model got wrong", () => {
  it("Gemini: a numeric id runs the call and answers it with the id as text", async () => {
    const seen: unknown[] = [];
    const sift = siftWith(seen);
    sift.prepare({ session: "s", provider: "gemini" });
    const outcome = await sift.respond({
      session: "s",
      provider: "gemini",
      response: {
        candidates: [
          {
            content: {
              parts: [
                {
                  functionCall: { id: 7 as unknown as string, name: "deploy", args: { name: "a" } },
                },
              ],
            },
          },
        ],
      },
    });
    expect(seen).toHaveLength(2);
    expect(outcome.results[0]?.parts[0]?.functionResponse).toMatchObject({
      id: "7",
      name: "deploy",
    });
  });

  it("Anthropic: a tool_use with a numeric id gets a tool_result; end_turn gives nothing to push", async () => {
    const sift = siftWith([]);
    sift.prepare({ session: "s", provider: "anthropic", model: "claude-sonnet-4-6" });
    const outcome = await sift.respond({
      session: "s",
      provider: "anthropic",
      response: {
        content: [{ type: "tool_use", id: 42, name: "deploy", input: { name: "a" } }],
      } as never,
    });
    expect(outcome.results).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "42", content: [{ type: "text", text: "deployed" }] },
        ],
      },
    ]);
    const done = await sift.respond({
      session: "s",
      provider: "anthropic",
      response: { content: [{ type: "text", text: "Done." } as { type: string }] },
    });
    expect(done).toMatchObject({ done: true, results: [] });
  });
});

describe("OpenAI call ids the model got wrong", () => {
  it("Chat and Responses: numeric ids are answered with their text", async () => {
    const sift = siftWith([]);
    sift.prepare({ session: "s", provider: "openai-chat" });
    const chat = await sift.respond({
      session: "s",
      provider: "openai-chat",
      response: chatCall("deploy", '{"name":"a"}', 5),
    });
    expect(chat.results).toMatchObject([{ role: "tool", tool_call_id: "5" }]);
    sift.prepare({ session: "s", provider: "openai-responses" });
    const responses = await sift.respond({
      session: "s",
      provider: "openai-responses",
      response: {
        output: [{ type: "function_call", call_id: 9, name: "deploy", arguments: '{"name":"a"}' }],
      } as never,
    });
    expect(responses.results).toMatchObject([{ type: "function_call_output", call_id: "9" }]);
  });
});

describe("images in tool results stay within the budget", () => {
  const screenshot = async <P extends ProviderId>(provider: P) => {
    const sift = siftWith([]);
    sift.prepare({ session: "s", provider });
    const responses: Record<ProviderId, unknown> = {
      anthropic: { content: [{ type: "tool_use", id: "t1", name: "screenshot", input: {} }] },
      "openai-chat": chatCall("screenshot", "{}"),
      "openai-responses": {
        output: [{ type: "function_call", call_id: "c1", name: "screenshot", arguments: "{}" }],
      },
      gemini: { candidates: [{ content: { parts: [{ functionCall: { name: "screenshot" } }] } }] },
    };
    const outcome = await sift.respond({
      session: "s",
      provider,
      response: responses[provider] as never,
    });
    return outcome.results;
  };

  it("OpenAI Chat: the image becomes a short note", async () => {
    const [message] = await screenshot("openai-chat");
    expect(message?.content).toContain("here it is");
    expect(message?.content).toMatch(/\[image \(image\/png, \d+ KB\) omitted/);
    expect(message?.content).toMatch(/\[audio \(audio\/wav, \d+ KB\) omitted/);
    expect(message?.content.length).toBeLessThan(400);
  });

  it("OpenAI Responses: the image goes in an input_image part", async () => {
    const [item] = await screenshot("openai-responses");
    expect(item?.type).toBe("function_call_output");
    const output = item?.type === "function_call_output" ? item.output : undefined;
    expect(Array.isArray(output)).toBe(true);
    const parts = output as { type: string; text?: string; image_url?: string }[];
    expect(parts.map((part) => part.type)).toEqual(["input_text", "input_image", "input_text"]);
    expect(parts[1]?.image_url).toBe(`data:image/png;base64,${PNG}`);
    expect(parts[2]?.text).toMatch(/^\[audio/);
  });

  it("Gemini: the image goes in the function response's media parts", async () => {
    const [content] = await screenshot("gemini");
    const response = content?.parts[0]?.functionResponse;
    expect(response?.parts).toEqual([{ inlineData: { mimeType: "image/png", data: PNG } }]);
    expect(JSON.stringify(response?.response)).not.toContain(PNG.slice(0, 100));
  });
});

describe("fuzzed provider responses", () => {
  const ids = Object.keys(PROVIDERS) as ProviderId[];
  // shapes close to each provider's response, with any JSON in every slot
  const value = fc.jsonValue({ maxDepth: 3 });
  const callLike = fc.record(
    {
      type: fc.constantFrom("tool_use", "function_call", "function", "server_tool_use", "x"),
      id: value,
      call_id: value,
      name: fc.constantFrom("deploy", "screenshot", "tool_search", "nope", ""),
      input: value,
      arguments: fc.oneof(value, fc.constant('{"name":"a","__proto__":{"force":true}}')),
      functionCall: fc.record({ id: value, name: value, args: value }, { requiredKeys: [] }),
      function: fc.record({ name: value, arguments: value }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  );
  const list = fc.array(fc.oneof(callLike, value), { maxLength: 4 });
  const response = fc.oneof(
    fc.record({ content: list }),
    fc.record({ output: list }),
    fc.record({ choices: fc.array(fc.record({ message: fc.record({ tool_calls: list }) })) }),
    fc.record({ candidates: fc.array(fc.record({ content: fc.record({ parts: list }) })) }),
    value,
  );

  it("respond never throws anything but a clear invalid_option error", async () => {
    const seen: unknown[] = [];
    const sift = siftWith(seen);
    for (const provider of ids) sift.prepare({ session: "s", provider });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), response, async (provider, body) => {
        try {
          const outcome = await sift.respond({ session: "s", provider, response: body as never });
          expect(Array.isArray(outcome.results)).toBe(true);
          JSON.stringify(outcome.results);
        } catch (error) {
          expect(error).toMatchObject({ code: "invalid_option" });
          expect(String((error as Error).message)).toMatch(/Cannot read .* tool calls/);
        }
      }),
      { seed: 1015, numRuns: 400 },
    );
    expect(({} as { force?: unknown }).force).toBeUndefined();
  });
});
