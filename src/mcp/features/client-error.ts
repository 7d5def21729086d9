/**
 * Errors a gateway session sends its client as JSON-RPC errors. The SDK's `McpError` puts
 * "MCP error CODE:" in its message and the client's SDK adds it again when it reads the answer,
 * so a client saw the prefix twice; these errors carry the code beside a bare message.
 */

/** A JSON-RPC error for the client: `code` and `data` are sent, `message` as it is. */
export interface ClientError extends Error {
  code: number;
  data?: unknown;
}

/** Creates the error a session handler throws to answer with `code` and `message`. */
export function clientError(code: number, message: string, data?: unknown): ClientError {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/** `text` without the "MCP error -32602: " prefixes the SDK put in front. */
export function withoutSDKPrefix(text: string): string {
  return text.replace(/^(MCP error -?\d+: )+/, "");
}

/** The error to send for anything a handler threw: an `McpError` (the gateway's own, or an
 * upstream's passed through) keeps its code and data, its message loses the SDK's prefixes. */
export function toClientError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { code, data } = error as Partial<ClientError>;
  if (typeof code !== "number") return error;
  const message = withoutSDKPrefix(error.message);
  return message === error.message ? error : clientError(code, message, data);
}
