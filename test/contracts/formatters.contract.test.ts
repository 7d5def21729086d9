import { createAnthropicFormatter } from "../../src/providers/anthropic/index.js";
import { createGeminiFormatter } from "../../src/providers/gemini/index.js";
import {
  createOpenAIChatFormatter,
  createOpenAIResponsesFormatter,
} from "../../src/providers/openai/index.js";
import { runFormatterContract } from "./formatter.contract.js";

type Entry = { name?: string; type?: string; defer_loading?: boolean; tools?: Entry[] };

const split = (entries: readonly Entry[]) => ({
  loaded: entries.filter((entry) => !entry.defer_loading).map((entry) => entry.name ?? ""),
  deferred: entries.filter((entry) => entry.defer_loading).map((entry) => entry.name ?? ""),
});

runFormatterContract({
  name: "anthropic (client, tool_reference)",
  create: () => createAnthropicFormatter({ model: "claude-sonnet-4-6" }),
  namePattern: /^[a-zA-Z0-9_-]{1,128}$/,
  native: true,
  clientDeferred: "marked",
  inspect: (formatted) =>
    split(
      (formatted.tools as Entry[]).filter((tool) => !tool.type?.startsWith("tool_search_tool")),
    ),
  response: (calls) => ({
    content: calls.map((call) => ({
      type: "tool_use",
      id: call.id,
      name: call.providerName,
      input: call.arguments,
    })),
  }),
});

runFormatterContract({
  name: "anthropic (client, text results)",
  create: () => createAnthropicFormatter({ model: "claude-opus-4-1" }),
  namePattern: /^[a-zA-Z0-9_-]{1,128}$/,
  native: true,
  clientDeferred: "absent",
  inspect: (formatted) =>
    split(
      (formatted.tools as Entry[]).filter((tool) => !tool.type?.startsWith("tool_search_tool")),
    ),
  response: (calls) => ({
    content: calls.map((call) => ({
      type: "tool_use",
      id: call.id,
      name: call.providerName,
      input: call.arguments,
    })),
  }),
});

const chatResponse = (calls: { id: string; providerName: string; arguments: unknown }[]) => ({
  choices: [
    {
      message: {
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.providerName, arguments: JSON.stringify(call.arguments) },
        })),
      },
    },
  ],
});

for (const strict of [false, true]) {
  runFormatterContract({
    name: `openai-chat${strict ? " (strict)" : ""}`,
    create: () => createOpenAIChatFormatter({ strict }),
    namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
    native: false,
    clientDeferred: "absent",
    inspect: (formatted) =>
      split((formatted.tools as { function: Entry }[]).map((tool) => tool.function)),
    response: chatResponse,
  });
}

const responsesResponse = (calls: { id: string; providerName: string; arguments: unknown }[]) => ({
  output: calls.map((call) => ({
    type: "function_call",
    call_id: call.id,
    name: call.providerName,
    arguments: JSON.stringify(call.arguments),
  })),
});

const flatten = (entries: readonly Entry[]): Entry[] =>
  entries.flatMap((entry) => (entry.type === "namespace" ? (entry.tools ?? []) : [entry]));

for (const model of ["gpt-5.4", "gpt-4.1"]) {
  runFormatterContract({
    name: `openai-responses (${model})`,
    create: () => createOpenAIResponsesFormatter({ model }),
    namePattern: /^[a-zA-Z0-9_-]{1,64}$/,
    native: true,
    clientDeferred: "absent",
    revealedInConversation: model === "gpt-5.4",
    // the client-executed tool_search stands for the search meta tool
    inspect: (formatted) =>
      split(
        flatten(formatted.tools as Entry[])
          .filter((tool) => !(tool.type === "tool_search" && !("execution" in tool)))
          .map((tool) => (tool.type === "tool_search" ? { name: "tool_search" } : tool)),
      ),
    response: responsesResponse,
  });
}

runFormatterContract({
  name: "gemini",
  create: () => createGeminiFormatter(),
  namePattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
  native: false,
  clientDeferred: "absent",
  inspect: (formatted) =>
    split(
      (formatted.tools as { functionDeclarations: Entry[] }[]).flatMap(
        (tool) => tool.functionDeclarations,
      ),
    ),
  response: (calls) => ({
    candidates: [
      {
        content: {
          parts: calls.map((call) => ({
            functionCall: { id: call.id, name: call.providerName, args: call.arguments },
          })),
        },
      },
    ],
  }),
});
