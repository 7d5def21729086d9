import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  exitedAtStart,
  keepStderrTail,
  quotedLines,
  STDERR_LINE_CHARS,
  STDERR_QUOTED_LINES,
} from "./stderr-tail.js";

const closed = () => new McpError(ErrorCode.ConnectionClosed, "Connection closed");

describe("a stdio server's stderr tail", () => {
  it("quotes the last lines when none complains, each cut to a bounded length", () => {
    const transport = {} as Transport;
    const hear = keepStderrTail(transport);
    for (let index = 0; index < 100; index++) hear(`line ${index}`);
    hear("x".repeat(10_000));
    const error = exitedAtStart(transport, closed()) as { code: string; stderr: string[] };
    expect(error.code).toBe("exited_at_start");
    expect(error.stderr).toHaveLength(STDERR_QUOTED_LINES);
    expect(error.stderr).toEqual(["line 98", "line 99", `${"x".repeat(STDERR_LINE_CHARS)}…`]);
  });

  it("quotes the lines that complain over stack frames and banners", () => {
    const node = [
      "node:internal/modules/cjs/loader:1228",
      "  throw err;",
      "  ^",
      "Error: Cannot find module '/srv/mcp/index.js'",
      "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)",
      "  code: 'MODULE_NOT_FOUND',",
      "Node.js v20.20.2",
    ];
    expect(quotedLines(node)).toEqual(["Error: Cannot find module '/srv/mcp/index.js'"]);
    const python = [
      "Traceback (most recent call last):",
      '  File "server.py", line 3',
      "KeyError: 'API_KEY'",
    ];
    expect(quotedLines(python)).toEqual(["KeyError: 'API_KEY'"]);
  });

  it("leaves other errors, and transports it does not watch, as they are", () => {
    const watched = {} as Transport;
    keepStderrTail(watched);
    const timeout = new McpError(ErrorCode.RequestTimeout, "Request timed out");
    expect(exitedAtStart(watched, timeout)).toBe(timeout);
    const error = closed();
    expect(exitedAtStart({} as Transport, error)).toBe(error);
  });
});
