/** Words for upstream failures: each names the server, what failed, and the fix. */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorText, redactUrls } from "../../internal/index.js";
import type { UpstreamServerConfig } from "../types.js";

/** Explains an error raised while talking to an upstream, for a model or a log line; URLs in it
 * (the config's and any the SDK quoted) lose their credentials and query strings, and the config's
 * secrets (`redactConfigSecrets`) are named instead of shown. */
export function upstreamErrorText(
  server: string,
  config: UpstreamServerConfig,
  error: unknown,
  during: string,
): string {
  return redactConfigSecrets(
    redactUrls(explainUpstreamError(server, config, error, during)),
    config,
  );
}

// an environment variable whose name says it holds a secret
const SECRET_NAME = /key|token|secret|passw|auth|credential|cookie|session|pat$/i;
// shorter values ("1", "true", a port) are not secrets and would blank ordinary words
const SECRET_MIN_CHARS = 8;

/**
 * Replaces the values of the config's secret-named `env` entries and of all its `headers` with
 * `[NAME]`: what a server says when it fails (its stderr, quoted when it exits while starting, or
 * an SDK error) may echo the key it was given ("invalid API key sk-…"), and these texts reach the
 * model, the inspector and log files.
 */
export function redactConfigSecrets(text: string, config: UpstreamServerConfig): string {
  const secrets: [string, string][] = [];
  if ("command" in config) {
    for (const [name, value] of Object.entries(config.env ?? {}))
      if (SECRET_NAME.test(name)) secrets.push([name, value]);
  } else {
    for (const [name, value] of Object.entries(config.headers ?? {})) {
      // "Bearer abc…": the credential is the part after the scheme
      secrets.push([name, value.replace(/^(bearer|basic|token)\s+/i, "")]);
    }
  }
  let redacted = text;
  for (const [name, value] of secrets) {
    if (value.length >= SECRET_MIN_CHARS) redacted = redacted.split(value).join(`[${name}]`);
  }
  return redacted;
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
