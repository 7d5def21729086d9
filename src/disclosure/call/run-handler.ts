import { jsonCopy } from "../../budget/index.js";
import type { ToolCallContext, ToolHandler, ToolResult } from "../../catalog/index.js";

/** A text-only error result a model can act on. */
export function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    (value as { content: unknown[] }).content.every(
      (block) =>
        typeof block === "object" &&
        block !== null &&
        typeof (block as { type?: unknown }).type === "string",
    )
  );
}

/** Repairs what a handler's MCP result may hold that no provider can send: text that is not a
 * string, and structuredContent that is not JSON (circular, BigInt). Well-formed results are
 * returned as they are. */
function repairToolResult(result: ToolResult): ToolResult {
  const badText = result.content.some(
    (block) => block.type === "text" && typeof block.text !== "string",
  );
  let structuredOk = true;
  if (result.structuredContent !== undefined) {
    try {
      JSON.stringify(result.structuredContent);
    } catch {
      structuredOk = false;
    }
  }
  if (!badText && structuredOk) return result;
  const repaired: ToolResult = {
    ...result,
    content: result.content.map((block) =>
      block.type === "text" && typeof block.text !== "string"
        ? { ...block, text: toText(block.text) }
        : block,
    ),
  };
  if (!structuredOk) {
    const copy = jsonCopy(result.structuredContent).value;
    if (copy !== null && typeof copy === "object" && !Array.isArray(copy)) {
      repaired.structuredContent = copy as { [key: string]: unknown };
    } else delete repaired.structuredContent;
  }
  return repaired;
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    // circular, BigInt, a throwing toJSON or getter, or too deep: the model reads the data with
    // visible markers ("[Circular]", "[toJSON threw: …]") instead of "[object Object]"
    try {
      return JSON.stringify(jsonCopy(value).value) ?? "null";
    } catch {
      return "(The tool returned a value that could not be converted to JSON text.)";
    }
  }
}

/** Wraps a handler's return value as an MCP result: results pass through (made JSON-safe where
 * they are not), strings become text, anything else becomes JSON text. */
export function toToolResult(value: unknown): ToolResult {
  if (isToolResult(value)) return repairToolResult(value);
  return { content: [{ type: "text", text: toText(value) }] };
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a handler threw, as text; never throws itself (a thrown object may be cyclic, a BigInt,
 * or an error whose `message` getter throws). */
function reason(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message || error.name);
    if (typeof error === "string") return error;
  } catch {
    return "an error whose message cannot be read";
  }
  try {
    return toText(error);
  } catch {
    return "a value that cannot be read";
  }
}

/**
 * Runs a handler with a time limit and the caller's abort signal; never throws.
 *
 * A throw, a rejection, a timeout or an abort becomes an `isError` result naming the tool and
 * what to do next. The handler's own signal is aborted on timeout so it can stop its work.
 */
export async function runHandler(
  name: string,
  handler: ToolHandler,
  args: { [key: string]: unknown },
  session: string,
  timeoutMs: number,
  signal?: AbortSignal,
  extra: Pick<ToolCallContext, "host" | "upstreamName"> = {},
): Promise<ToolResult> {
  if (signal?.aborted) return errorResult(`Tool "${name}" was not run: the call was cancelled.`);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<ToolResult>((resolve) => {
    // Node fires a timer beyond its range after 1 ms: such limits, and Infinity, mean none
    if (timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        controller.abort(new Error(`timed out after ${timeoutMs} ms`));
        resolve(
          errorResult(
            `Tool "${name}" timed out after ${timeoutMs} ms and its result was discarded. Try again with a smaller request, or use another tool.`,
          ),
        );
      }, timeoutMs);
    }
    onAbort = () => {
      controller.abort(signal?.reason);
      resolve(errorResult(`Tool "${name}" was cancelled before it finished.`));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const context: ToolCallContext = {
    session,
    signal: controller.signal,
    ...extra,
  };
  const run = (async () => {
    try {
      return toToolResult(await handler(args, context));
    } catch (error) {
      return errorResult(
        `Tool "${name}" failed: ${reason(error)}. Check the arguments or try another approach.`,
      );
    }
  })();
  try {
    return await Promise.race([run, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
