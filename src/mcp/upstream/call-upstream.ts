/**
 * Calls to one upstream: a `tools/call` that never throws (a failure is an `isError` result
 * naming the server, the tool and a fix) and any other request (resources, prompts, completion),
 * whose failures are `McpError`s naming the server. Each brings a down server up first
 * (start-upstream.ts) and runs within the server's call limit.
 */
import {
  CallToolResultSchema,
  type ClientRequest,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolResult } from "../../catalog/index.js";
import type { UpstreamProgress } from "../relay/call-scope.js";
import type { ClientRelay } from "../relay/relay-tracker.js";
import { isTooLarge, tooLargeText } from "./bound-stdio-reads.js";
import { coalesceProgress } from "./coalesce-progress.js";
import { ensureUp } from "./start-upstream.js";
import type { UpstreamConnection } from "./upstream-connect.js";
import { upstreamErrorText } from "./upstream-errors.js";
import { loggedOut, retryingLogin, type UpstreamRun } from "./upstream-run.js";

/** Options of `UpstreamServer.call`. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: UpstreamProgress) => void;
  /** The client session that answers the server's sampling/elicitation/roots meanwhile. */
  relay?: ClientRelay;
  /** Told why the gateway could not get an answer (`upstream_unavailable`,
   * `upstream_timeout`, `upstream_closed`, `needs_login`, `result_too_large`,
   * `upstream_error`); an `isError` result the tool itself sent is not a failure here. */
  onFailure?: (code: string) => void;
}

/** Options of `UpstreamServer.request`. */
export interface UpstreamRequestOptions {
  signal?: AbortSignal;
  relay?: ClientRelay;
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Sends one tools/call on whichever connection is up. */
function sendCall(
  run: UpstreamRun,
  connection: UpstreamConnection,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onProgress: ((progress: UpstreamProgress) => void) | undefined,
): Promise<ToolResult> {
  const timeout = run.callTimeoutMs;
  if (connection.kind === "modern") {
    return connection.modern.callTool(tool, args, {
      timeout,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
  }
  return connection.client.request(
    { method: "tools/call", params: { name: tool, arguments: args } },
    CallToolResultSchema,
    {
      timeout,
      ...(signal ? { signal } : {}),
      // a server that keeps reporting progress is working, not hung
      ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
    },
  ) as Promise<ToolResult>;
}

/** The result a failed call returns: what happened, to which tool, and what to do. */
function callFailure(
  run: UpstreamRun,
  tool: string,
  error: unknown,
  onFailure: (code: string) => void = () => undefined,
): ToolResult {
  const { name } = run;
  const needed = run.login.auth?.loginNeeded(error);
  if (needed !== undefined) {
    loggedOut(run, needed);
    onFailure("needs_login");
    return errorResult(needed);
  }
  const tooLarge = isTooLarge(error);
  if (tooLarge) {
    onFailure("result_too_large");
    return errorResult(tooLargeText(name, `tools/call "${tool}"`, tooLarge));
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    onFailure("upstream_timeout");
    return errorResult(
      `Server "${name}" did not answer tools/call "${tool}" within ${run.callTimeoutMs / 1000} s. Try again, or raise callTimeoutMs for "${name}" in the config.`,
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    onFailure("upstream_closed");
    return errorResult(
      `Server "${name}" went down during tools/call "${tool}"; the call may or may not have taken effect. The server restarts on the next call.`,
    );
  }
  onFailure("upstream_error");
  return errorResult(upstreamErrorText(name, run.config, error, `tools/call "${tool}"`));
}

/** Calls a tool, starting the server first if it is down; never throws. */
export async function callUpstream(
  run: UpstreamRun,
  tool: string,
  args: Record<string, unknown>,
  callOptions: UpstreamCallOptions,
): Promise<ToolResult> {
  const { signal, relay } = callOptions;
  const problem = await ensureUp(run);
  const connection = run.connection;
  if (problem !== undefined || !connection) {
    callOptions.onFailure?.("upstream_unavailable");
    return errorResult(problem ?? `Server "${run.name}" is down.`);
  }
  // a flood of reports reaches the client thinned; the last one before the result
  let progress = callOptions.onProgress && coalesceProgress(callOptions.onProgress);
  // the SDK keeps a call's progress callback past its result when the server's answer claims a
  // `task` (toolsift never asks for one): cut loose at the result, a hostile server can neither
  // report on a finished call nor keep its session's objects alive through the callback
  const report = progress && ((update: UpstreamProgress) => progress?.report(update));
  if (progress) run.progressCalls += 1;
  try {
    const result = await run.relays.during(
      relay,
      () => retryingLogin(run, () => sendCall(run, connection, tool, args, signal, report)),
      signal,
    );
    run.gate.succeeded();
    return result;
  } catch (error) {
    return callFailure(run, tool, error, callOptions.onFailure);
  } finally {
    progress?.flush();
    if (progress) run.progressCalls -= 1;
    progress = undefined;
  }
}

/** Sends any other request, starting the server first if it is down. */
export async function requestUpstream<S extends z.ZodType>(
  run: UpstreamRun,
  request: ClientRequest,
  schema: S,
  requestOptions: UpstreamRequestOptions,
): Promise<z.infer<S>> {
  const problem = await ensureUp(run);
  const connection = run.connection;
  if (problem !== undefined || !connection) {
    throw new McpError(ErrorCode.InternalError, problem ?? `Server "${run.name}" is down.`);
  }
  const { signal, relay } = requestOptions;
  const timing = { timeout: run.callTimeoutMs, ...(signal ? { signal } : {}) };
  try {
    return await run.relays.during(
      relay,
      async () =>
        connection.kind === "modern"
          ? (schema.parse(await connection.modern.request(request, timing)) as z.infer<S>)
          : connection.client.request(request, schema, timing),
      signal,
    );
  } catch (error) {
    const needed = run.login.auth?.loginNeeded(error);
    if (needed !== undefined) {
      loggedOut(run, needed);
      throw new McpError(ErrorCode.InternalError, needed);
    }
    // the upstream's own JSON-RPC errors (unknown resource, bad argument) pass through as is
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) throw error;
    throw new McpError(
      ErrorCode.InternalError,
      upstreamErrorText(run.name, run.config, error, request.method),
    );
  }
}
