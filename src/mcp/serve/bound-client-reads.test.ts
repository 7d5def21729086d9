import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { STDIO_MESSAGE_LIMIT } from "../upstream/bounded-read-buffer.js";
import { boundClientReads } from "./bound-client-reads.js";

/** A stdio server transport over in-memory pipes, its reads bounded, and what it read and wrote. */
async function boundedTransport() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioServerTransport(stdin, stdout);
  boundClientReads(transport);
  const read: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let written = "";
  stdout.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  transport.onmessage = (message) => read.push(message);
  transport.onerror = (error) => errors.push(error);
  let closed = false;
  transport.onclose = () => {
    closed = true;
  };
  await transport.start();
  const sent = () =>
    written
      .split("\n")
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } },
      );
  return { stdin, read, errors, sent, closed: () => closed };
}

const padding = "x".repeat(STDIO_MESSAGE_LIMIT + 1024);

describe("boundClientReads", () => {
  it("answers an over-limit request with an error and reads on: the session stays open", async () => {
    const pipe = await boundedTransport();
    const big = `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"${padding}"}},"jsonrpc":"2.0","id":7}\n`;
    pipe.stdin.write(big.slice(0, 4_000_000));
    pipe.stdin.write(big.slice(4_000_000));
    pipe.stdin.write('{"method":"ping","jsonrpc":"2.0","id":8}\n');
    await expect.poll(() => pipe.read.length).toBe(1);
    expect(pipe.read).toEqual([{ method: "ping", jsonrpc: "2.0", id: 8 }]);
    expect(pipe.sent()).toEqual([
      expect.objectContaining({
        id: 7,
        error: expect.objectContaining({
          code: -32600,
          message: expect.stringMatching(
            /^The request was 10\.0 MB, over the 10\.0 MB .*Send less/,
          ),
        }),
      }),
    ]);
    expect(pipe.closed()).toBe(false);
    expect(pipe.errors).toEqual([]);
  });

  it("turns an over-limit answer into an error response to the request it answered", async () => {
    const pipe = await boundedTransport();
    pipe.stdin.write(`{"result":{"content":{"text":"${padding}"}},"jsonrpc":"2.0","id":3}\n`);
    await expect.poll(() => pipe.read.length).toBe(1);
    expect(pipe.read[0]).toMatchObject({
      id: 3,
      error: { code: -32603, message: expect.stringContaining("The client's answer was") },
    });
    expect(pipe.sent()).toEqual([]);
  });

  it("reports a line that is not a JSON-RPC message and reads on", async () => {
    const pipe = await boundedTransport();
    pipe.stdin.write('{"level":"info"}\n{"method":"ping","jsonrpc":"2.0","id":1}\n');
    await expect.poll(() => pipe.read.length).toBe(1);
    expect(pipe.errors).toHaveLength(1);
  });
});
