/** Anthropic Messages: tool results (text, images, tool references) as one user message. */
import type { ToolContent } from "../../catalog/index.js";
import { foundNames, isMediaBlock, mediaNote } from "../outcome-text.js";
import type { CallOutcome } from "../types.js";
import { anthropicState } from "./format-tools.js";
import type {
  AnthropicFormatted,
  AnthropicImageType,
  AnthropicResultBlock,
  AnthropicResultMessage,
  AnthropicToolResult,
} from "./wire-types.js";

const IMAGE_TYPES = new Set<string>(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function contentBlocks(content: readonly ToolContent[]): AnthropicResultBlock[] {
  const blocks: AnthropicResultBlock[] = [];
  for (const block of content) {
    if (block.type === "text") {
      if (block.text !== "") blocks.push({ type: "text", text: block.text });
    } else if (block.type === "image" && IMAGE_TYPES.has(block.mimeType)) {
      blocks.push({
        type: "image",
        source: {
          type: "base64",
          media_type: block.mimeType as AnthropicImageType,
          data: block.data,
        },
      });
    } else if (isMediaBlock(block)) {
      // other media cannot go into a tool_result; say what was there, never its base64 as text
      blocks.push({ type: "text", text: mediaNote(block, "anthropic") });
    } else {
      blocks.push({ type: "text", text: JSON.stringify(block) });
    }
  }
  return blocks;
}

/**
 * Formats outcomes as one user message of `tool_result` blocks, or no message when no call needs
 * an answer (an empty user message is rejected). Server searches get no result
 * (the API rejects one). In tool-reference mode, a search meta tool's result is the found tools as
 * `tool_reference` blocks, which the API expands into their definitions.
 */
export function formatAnthropicResults(
  outcomes: readonly CallOutcome[],
  formatted: AnthropicFormatted,
): AnthropicResultMessage[] {
  const state = anthropicState.get(formatted);
  const content: AnthropicToolResult[] = [];
  for (const { call, outcome } of outcomes) {
    if (call.kind === "server_search") continue;
    const result: AnthropicToolResult = { type: "tool_result", tool_use_id: call.id };
    let blocks = contentBlocks(outcome.content);
    if (state?.references && call.name === state.searchName && !outcome.isError) {
      const references = foundNames(outcome)
        .map((name) => formatted.providerNames.get(name))
        .filter((name): name is string => name !== undefined)
        .map((name): AnthropicResultBlock => ({ type: "tool_reference", tool_name: name }));
      // with no match, the text (suggestions, "try other keywords") is the useful answer
      if (references.length > 0) blocks = references;
    }
    if (blocks.length > 0) result.content = blocks;
    if (outcome.isError) result.is_error = true;
    content.push(result);
  }
  return content.length > 0 ? [{ role: "user", content }] : [];
}
