/**
 * The last lines a stdio server wrote to stderr. At the default log level a server's stderr is
 * not shown (it goes to the debug log), so a server that exits while starting (a missing API key,
 * a wrong path in `args`) would be reported as a bare "Connection closed"; with its last lines
 * the start error says what the server itself said.
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** Lines kept (Node's report of a missing module is 15 lines, its message on the fifth), and
 * characters kept of each. */
export const STDERR_TAIL_LINES = 20;
export const STDERR_LINE_CHARS = 200;
/** Lines quoted in the error: the first that read as a complaint, else the last ones. */
export const STDERR_QUOTED_LINES = 3;

// words of a failure, in any language's runtime: "Error: Cannot find module", "KeyError:",
// "API_KEY is not set", "usage: …"; stack frames and banners ("Node.js v20") carry none
const COMPLAINT =
  /error|exception|fatal|cannot|can't|failed|missing|not found|not set|denied|invalid|required|usage/i;

/** The lines worth quoting: those that complain, else the last lines. */
export function quotedLines(lines: readonly string[]): string[] {
  const complaints = lines.filter((line) => COMPLAINT.test(line));
  const chosen = complaints.length > 0 ? complaints : lines.slice(-STDERR_QUOTED_LINES);
  return chosen.slice(0, STDERR_QUOTED_LINES).map((line) => line.trim());
}

const tails = new WeakMap<Transport, string[]>();

/** Starts keeping the last stderr lines of `transport`; returns the function that hears each. */
export function keepStderrTail(transport: Transport): (line: string) => void {
  const lines: string[] = [];
  tails.set(transport, lines);
  return (line) => {
    const kept = line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line;
    lines.push(kept);
    if (lines.length > STDERR_TAIL_LINES) lines.shift();
  };
}

/** The error a start raises when the server's process ended before it answered: the SDK's
 * "Connection closed" with the lines of its stderr worth quoting (`code: "exited_at_start"`), or
 * `error` itself for any other failure or transport. */
export function exitedAtStart(transport: Transport, error: unknown): unknown {
  const lines = tails.get(transport);
  const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
  if (lines === undefined || !closed) return error;
  return Object.assign(new Error("the server's process exited while starting", { cause: error }), {
    code: "exited_at_start",
    stderr: quotedLines(lines),
  });
}
