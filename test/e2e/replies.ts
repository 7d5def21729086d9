/** Model turns as the providers' APIs return them, for the mock server to play back. */

/** An Anthropic Messages response. */
export const claude = (content: unknown[], stop = "tool_use") => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-6",
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});

/** An Anthropic response that ends the turn with text. */
export const claudeDone = claude([{ type: "text", text: "Done." }], "end_turn");

/** A `tool_use` block. */
export const toolUse = (id: string, name: string, input: unknown) => ({
  type: "tool_use",
  id,
  name,
  input,
});

/** A Chat Completions response with these tool calls (none: a final text answer). */
export const completion = (calls: { id: string; name: string; arguments: unknown }[]) => ({
  id: "c",
  object: "chat.completion",
  created: 1,
  model: "gpt-4.1",
  choices: [
    {
      index: 0,
      finish_reason: calls.length ? "tool_calls" : "stop",
      message: {
        role: "assistant",
        content: calls.length ? null : "Done.",
        ...(calls.length
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: "function",
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      },
    },
  ],
});

/** A Responses API response with these output items. */
export const responsesTurn = (id: string, output: unknown[]) => ({
  id,
  object: "response",
  created_at: 1,
  model: "gpt-5.4",
  status: "completed",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});

/** A `generateContent` response with these parts. */
export const geminiTurn = (parts: unknown[]) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
});
