/**
 * A scripted AI SDK model for tests and examples: each step is a function of the call options
 * (so a step can read the tools it was offered) that returns tool calls or text. Built on the
 * SDK's own `MockLanguageModelV3`; works for `generateText` and `streamText`.
 */

import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";

/** One model turn: tool calls (name and input) or a final text. */
export type ScriptedTurn = { calls: { name: string; input: unknown }[] } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function contentOf(turn: ScriptedTurn, step: number): LanguageModelV3Content[] {
  if ("text" in turn) return [{ type: "text", text: turn.text }];
  return turn.calls.map((call, index) => ({
    type: "tool-call",
    toolCallId: `call-${step}-${index}`,
    toolName: call.name,
    input: JSON.stringify(call.input),
  }));
}

function streamPartsOf(content: LanguageModelV3Content[], finish: "stop" | "tool-calls") {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const part of content) {
    if (part.type === "text") {
      parts.push({ type: "text-start", id: "t" });
      parts.push({ type: "text-delta", id: "t", delta: part.text });
      parts.push({ type: "text-end", id: "t" });
    } else parts.push(part as LanguageModelV3StreamPart);
  }
  parts.push({ type: "finish", finishReason: { unified: finish, raw: finish }, usage });
  return parts;
}

/** A model that plays `script` one step at a time; `calls` records what each step was offered. */
export function scriptedModel(script: ((options: LanguageModelV3CallOptions) => ScriptedTurn)[]) {
  const offered: string[][] = [];
  let step = 0;
  const next = (options: LanguageModelV3CallOptions) => {
    offered.push((options.tools ?? []).map((tool) => tool.name));
    const turn = script[Math.min(step, script.length - 1)]?.(options) ?? { text: "done" };
    const content = contentOf(turn, step);
    step += 1;
    return { content, finish: "text" in turn ? ("stop" as const) : ("tool-calls" as const) };
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { content, finish } = next(options);
      return {
        content,
        finishReason: { unified: finish, raw: finish },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const { content, finish } = next(options);
      return { stream: simulateReadableStream({ chunks: streamPartsOf(content, finish) }) };
    },
  });
  return { model, offered };
}
