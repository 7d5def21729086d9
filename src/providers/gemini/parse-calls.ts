/** Gemini: the function calls of a response; renamed arguments and enum values mapped back. */
import { catalogName } from "../name-map-cache.js";
import { objectEntries, responseList } from "../response-list.js";
import type { FormattedTools, UnifiedCall } from "../types.js";
import type { GeminiResponseLike } from "./wire-types.js";

type Candidate = NonNullable<GeminiResponseLike["candidates"]>[number];
interface CandidatePart {
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
}

/** Prefix of the ids toolsift gives Gemini calls that came without one. */
export const GENERATED_CALL_ID = "toolsift-gemini-";

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
