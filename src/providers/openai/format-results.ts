/** OpenAI: tool results as Chat Completions tool messages or Responses input items. */
import type { ExecuteOutcome } from "../../disclosure/index.js";
import { foundNames, outcomeText } from "../outcome-text.js";
import type { CallOutcome } from "../types.js";
import { responsesState } from "./format-responses-tools.js";
import type {
  OpenAIChatToolMessage,
  OpenAIResponsesFormatted,
  OpenAIResponsesFunction,
  OpenAIResponsesOutputPart,
  OpenAIResponsesResultItem,
} from "./wire-types.js";

/**
 * One `role: "tool"` message per executed call. Tool messages take text only, so media become a
 * short note (see `mediaNote`).
 */
export function formatChatResults(outcomes: readonly CallOutcome[]): OpenAIChatToolMessage[] {
  return outcomes
    .filter(({ call }) => call.kind !== "server_search")
    .map(
      ({ call, outcome }): OpenAIChatToolMessage => ({
        role: "tool",
        tool_call_id: call.id,
        content: outcomeText(outcome, "openai-chat"),
      }),
    );
}

// image types the Responses API reads (platform.openai.com images and vision)
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

/**
 * A function call's output: the text, or (when the result has images) text and `input_image`
 * parts, so an image costs what the budget counted for it instead of its base64 as text.
 */
function outputOf(outcome: ExecuteOutcome): string | OpenAIResponsesOutputPart[] {
  const images = outcome.content.filter(
    (block) => block.type === "image" && IMAGE_TYPES.has(block.mimeType),
  );
  if (images.length === 0) return outcomeText(outcome, "openai-responses");
  const parts: OpenAIResponsesOutputPart[] = [];
  for (const block of outcome.content) {
    if (block.type === "image" && IMAGE_TYPES.has(block.mimeType))
      parts.push({ type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}` });
    else {
      const text = outcomeText({ ...outcome, content: [block] }, "openai-responses");
      if (text !== "") parts.push({ type: "input_text", text });
    }
  }
  return parts;
}

/** Input items that answer the calls of a response; hosted searches get none. */
export function formatResponsesResults(
  outcomes: readonly CallOutcome[],
  formatted: OpenAIResponsesFormatted,
): OpenAIResponsesResultItem[] {
  const state = responsesState.get(formatted);
  const items: OpenAIResponsesResultItem[] = [];
  for (const { call, outcome } of outcomes) {
    if (call.kind === "server_search") continue;
    if (call.kind === "client_search") {
      const tools = outcome.isError
        ? []
        : foundNames(outcome)
            .map((name) => state?.definition(name))
            .filter((tool): tool is OpenAIResponsesFunction => tool !== undefined);
      items.push({
        type: "tool_search_output",
        execution: "client",
        call_id: call.id,
        status: "completed",
        tools,
      });
    } else {
      items.push({ type: "function_call_output", call_id: call.id, output: outputOf(outcome) });
    }
  }
  return items;
}
