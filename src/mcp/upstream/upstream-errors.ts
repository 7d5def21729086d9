/** Words for upstream failures: each names the server, what failed, and the fix. */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorText, redactUrls } from "../../internal/index.js";
import type { UpstreamServerConfig } from "../types.js";

/** Explains an error raised while talking to an upstream, for a model or a log line; URLs in it
 * (the config's and any the SDK quoted) lose their credentials and query strings. */
export function upstreamErrorText(
  server: string,
  config: UpstreamServerConfig,
  error: unknown,
  during: string,
): string {
  return redactUrls(explainUpstreamError(server, config, error, during));
}

function explainUpstreamError(
  server: string,
  config: UpstreamServerConfig,
  error: unknown,
  during: string,
): string {
  const code = (error as { code?: unknown }).code;
  const message = errorText(error);
  if (code === "modern_client_missing") {
    return `Server "${server}" speaks only MCP 2026-07-28 (the modern era, without the initialize handshake) and refused toolsift's 2025-11-25 client. Install the v2 MCP client next to toolsift (npm install @modelcontextprotocol/client@2.4.0) so toolsift can reach it, or run the server in a mode that also serves 2025-era clients.`;
  }
  if ("command" in config) {
    if (code === "ENOENT") {
      return `Server "${server}" could not start: command "${config.command}" was not found. Install it or fix "command" (and PATH) for "${server}" in the config.`;
    }
    if (code === "EACCES") {
      return `Server "${server}" could not start: command "${config.command}" is not executable. Fix its permissions or "command" in the config.`;
    }
    if (code === "exited_at_start") {
      return exitedText(server, (error as { stderr?: string[] }).stderr ?? []);
    }
  } else {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause?.code === "ECONNREFUSED" || code === "ECONNREFUSED") {
      return `Server "${server}" refused the connection at ${config.url}. Start it, or fix "url" for "${server}" in the config.`;
    }
    if (code === 401 || code === 403) {
      return `Server "${server}" rejected the credentials (HTTP ${code}) during ${during}. Fix "headers" (e.g. Authorization) for "${server}" in the config.`;
    }
  }
  if (code === "start_timeout") {
    const seconds = (error as { limitMs?: number }).limitMs ?? 0;
    const check =
      "command" in config
        ? "Check that it starts on its own and speaks MCP on stdout (run its command in a terminal: a server that prints logs to stdout breaks the protocol)"
        : `Check that it speaks MCP at ${config.url}`;
    return `Server "${server}" did not finish starting (initialize and every page of tools/list) within ${seconds / 1000} s, so the attempt was stopped. ${check}, or raise the start timeout (startTimeoutMs).`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && during === "start") {
    return `Server "${server}" did not answer initialize in time. Check that it speaks MCP on ${"command" in config ? "stdout (a server that prints logs to stdout breaks the protocol)" : config.url}, or raise the start timeout.`;
  }
  if (error instanceof McpError) {
    return `Server "${server}" answered ${during} with an error: ${message}`;
  }
  const hint =
    during === "start"
      ? `Check that "${server}" starts on its own (run its command in a terminal) and speaks MCP.`
      : "Try again; if it keeps failing, check the gateway log.";
  return `Server "${server}" failed during ${during}: ${message}. ${hint}`;
}

/** A stdio server whose process ended before it answered initialize: what it last said. */
function exitedText(server: string, stderr: readonly string[]): string {
  const fix = `Fix "command", "args" or "env" for "${server}" in the config; run the command in a terminal to see all it prints.`;
  if (stderr.length === 0) {
    return `Server "${server}" exited before it finished starting, without a word on stderr. ${fix}`;
  }
  return `Server "${server}" exited before it finished starting. On stderr it said: ${stderr.map((line) => JSON.stringify(line)).join(" / ")}. ${fix}`;
}
