/** Gemini: function responses, with images as media parts, as one user content. */
import type { ToolContent } from "../../catalog/index.js";
import { isMediaBlock, mediaNote } from "../outcome-text.js";
import type { CallOutcome } from "../types.js";
import { GENERATED_CALL_ID } from "./parse-calls.js";
import type {
  GeminiFunctionResponse,
  GeminiResponsePart,
  GeminiResultContent,
} from "./wire-types.js";

// image types Gemini reads inline (ai.google.dev image understanding)
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"]);

function responseOf(content: readonly ToolContent[]): {
  text: string;
  parts: GeminiResponsePart[];
} {
  const texts: string[] = [];
  const parts: GeminiResponsePart[] = [];
  for (const block of content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "image" && IMAGE_TYPES.has(block.mimeType))
      parts.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
    else texts.push(isMediaBlock(block) ? mediaNote(block, "gemini") : JSON.stringify(block));
  }
  return { text: texts.join("\n"), parts };
}

/**
 * Formats outcomes as one user content of `functionResponse` parts, or none when no call needs an
 * answer. Images go in the response's media parts; other media become a short note.
 */
export function formatGeminiResults(outcomes: readonly CallOutcome[]): GeminiResultContent[] {
  const parts = outcomes
    .filter(({ call }) => call.kind !== "server_search")
    .map(({ call, outcome }) => {
      const { text: joined, parts: media } = responseOf(outcome.content);
      const text =
        joined === "" && outcome.structuredContent !== undefined
          ? JSON.stringify(outcome.structuredContent)
          : joined;
      const functionResponse: GeminiFunctionResponse = {
        name: call.providerName,
        response: outcome.isError ? { error: text } : { output: text },
      };
      if (media.length > 0) functionResponse.parts = media;
      // ids toolsift made up were never seen by Gemini, so they are not sent back
      if (!String(call.id).startsWith(GENERATED_CALL_ID)) functionResponse.id = String(call.id);
      return { functionResponse };
    });
  return parts.length > 0 ? [{ role: "user", parts }] : [];
}
