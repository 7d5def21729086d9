import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHTTPEmbedder } from "./http-embedder.js";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A local fake `/embeddings` endpoint; `closed` resolves when a request's connection ends. */
async function fakeEndpoint(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ baseURL: string; closed: Promise<void> }> {
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  server = createServer((request, response) => {
    response.on("close", markClosed);
    request.resume();
    answer(request, response);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, closed };
}

describe("createHTTPEmbedder against a local endpoint", () => {
  it("reads the vectors of an answer", async () => {
    const { baseURL } = await fakeEndpoint((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3] }] }));
    });
    const embedder = createHTTPEmbedder({ baseURL, model: "m" });
    const [vector] = await embedder.embed(["a"], { kind: "query" });
    expect(Array.from(vector ?? [])).toEqual([1, 2, 3]);
  });

  it("aborts the request when the caller's signal fires (the connection closes)", async () => {
    const { baseURL, closed } = await fakeEndpoint(() => {
      // never answers
    });
    const embedder = createHTTPEmbedder({ baseURL, model: "m" });
    const controller = new AbortController();
    const pending = embedder.embed(["a"], { kind: "tool", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("no answer within 50 ms")), 50);
    await expect(pending).rejects.toThrow(/no answer within 50 ms|abort/i);
    await closed; // the server sees the request end: nothing is left open
  }, 20_000);

  it("stops reading an answer over maxResponseBytes and says so", async () => {
    const { baseURL, closed } = await fakeEndpoint((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.write('{"data":[{"index":0,"embedding":[');
      const chunk = `${"0.125,".repeat(10_000)}`;
      // an endless body: only a reader that stops can end this request
      const more = () => {
        if (response.destroyed) return;
        if (response.write(chunk)) setImmediate(more);
        else response.once("drain", more);
      };
      more();
    });
    const embedder = createHTTPEmbedder({ baseURL, model: "m", maxResponseBytes: 200_000 });
    await expect(embedder.embed(["a"], { kind: "tool" })).rejects.toThrow(
      /over 200000 bytes.*maxResponseBytes/,
    );
    await closed;
  }, 20_000);
});
