/**
 * Elicitations with nobody to relay them to. A gateway passes an upstream's `elicitation/create`
 * to the client session behind the call; a library user of `toolsift/mcp` (no gateway session)
 * answers it with `onElicitation`, and without that option the server is told the user declined,
 * which every server must handle, rather than left with an error or a hang.
 */
import type {
  ElicitRequestParams,
  ElicitResult,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { MCPLogEntry } from "../types.js";

/** What an `onElicitation` handler is given. */
export interface ElicitationRequest {
  /** The upstream server that asks. */
  server: string;
  /** The request as the server sent it: `message`, and `requestedSchema` (form) or `url`. */
  params: ElicitRequestParams;
  /** Aborted when the server cancels the request or the connection closes. */
  signal: AbortSignal;
}

/** Answers an upstream's elicitation when no client session is there to ask. An `accept` of a
 * form may leave out fields: each one the schema gives a `default` is sent with that default. */
export type ElicitationHandler = (
  request: ElicitationRequest,
) => ElicitResult | Promise<ElicitResult>;

type FormSchema = { properties?: Record<string, { default?: unknown }> };

/**
 * SEP-1034: a client shows a form pre-filled with the schema's defaults, so an accepted answer
 * carries them for every field the user left alone. A handler that accepts with partial (or no)
 * content gets the same: omitted fields take their defaults; given fields are kept.
 */
export function withSchemaDefaults(
  params: ElicitRequestParams,
  result: ElicitResult,
): ElicitResult {
  if (result.action !== "accept" || params.mode === "url") return result;
  const schema = params.requestedSchema as FormSchema | undefined;
  const content: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) content[field] = property.default;
  }
  return { ...result, content: { ...content, ...result.content } as ElicitResult["content"] };
}

/** Answers an elicitation no client session can take: the handler's answer (with defaults), or
 * `decline` with a log line saying how to answer instead. */
export async function answerElicitation(
  request: ServerRequest,
  server: string,
  signal: AbortSignal,
  handler: ElicitationHandler | undefined,
  log: (entry: MCPLogEntry) => void,
): Promise<ElicitResult> {
  const params = request.params as ElicitRequestParams;
  if (!handler) {
    log({
      level: "info",
      server,
      message: `Declined elicitation/create ("${params.message}"): no client session is connected to ask. Connect a client, or pass onElicitation to answer it.`,
    });
    return { action: "decline" };
  }
  return withSchemaDefaults(params, await handler({ server, params, signal }));
}
