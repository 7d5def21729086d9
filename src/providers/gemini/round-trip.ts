/** Gemini: function calls out of a response, function responses (with image parts) back in. */
import type { ToolContent } from "../../catalog/index.js";
import {
  catalogName,
  isMediaBlock,
  mediaNote,
  objectEntries,
  responseList,
} from "../plan-parts.js";
import type { CallOutcome, FormattedTools, UnifiedCall } from "../types.js";

/** The part of a `generateContent` response the parser reads (an SDK response fits). */
export interface GeminiResponseLike {
  candidates?: ReadonlyArray<{
    content?: {
      parts?: ReadonlyArray<{ functionCall?: { id?: string; name?: string; args?: unknown } }>;
    };
  }>;
}

type Candidate = NonNullable<GeminiResponseLike["candidates"]>[number];
interface CandidatePart {
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
}

/** Media inside a function response (multimodal function responses). */
export interface GeminiResponsePart {
  inlineData: { mimeType: string; data: string };
}

/** One `functionResponse` part. */
export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: { output: string } | { error: string };
  /** Images of the result, as Gemini's media parts instead of base64 text. */
  parts?: GeminiResponsePart[];
}

/** The content that answers a turn's function calls. */
export interface GeminiResultContent {
  role: "user";
  parts: { functionResponse: GeminiFunctionResponse }[];
}

/** Prefix of the ids toolsift gives Gemini calls that came without one. */
export const GENERATED_CALL_ID = "toolsift-gemini-";

// image types Gemini reads inline (ai.google.dev image understanding)
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"]);

function callId(id: unknown, index: number): string {
  if (typeof id === "string" && id !== "") return id;
  // a number (or other scalar) is the model's id all the same: answer it with its text
  if (typeof id === "number" || typeof id === "bigint") return String(id);
  return `${GENERATED_CALL_ID}${index}`;
}

/** Reads the `functionCall` parts of the first candidate; renamed arguments are mapped back. */
export function parseGeminiCalls(
  response: GeminiResponseLike,
  formatted: FormattedTools<unknown, unknown, unknown>,
): UnifiedCall[] {
  const calls: UnifiedCall[] = [];
  const candidate = responseList<Candidate>(response, "candidates", "gemini", true)[0];
  for (const part of objectEntries<CandidatePart>(candidate?.content?.parts)) {
    const functionCall = part.functionCall;
    if (typeof functionCall !== "object" || functionCall === null) continue;
    const providerName = typeof functionCall.name === "string" ? functionCall.name : "";
    const decoder = formatted.decoders.get(providerName);
    const args = functionCall.args ?? {};
    calls.push({
      id: callId(functionCall.id, calls.length),
      name: decoder?.name ?? catalogName(formatted.names, providerName),
      arguments: decoder?.restore ? decoder.restore(args) : args,
      providerName,
      kind: "function",
    });
  }
  return calls;
}

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
