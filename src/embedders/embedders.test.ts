import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createHTTPEmbedder } from "./http-embedder.js";
import { createWordVectorEmbedder } from "./word-vector-embedder.js";
import { buildWordVectorTable, parseWordVectorTable } from "./word-vector-table.js";

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((value, index) => {
    dot += value * (b[index] as number);
    na += value * value;
    nb += (b[index] as number) ** 2;
  });
  return dot / Math.sqrt(na * nb);
};

const SOURCE = {
  dimensions: 4,
  entries: [
    ["the", [0.1, 0.1, 0.1, 0.1]],
    ["film", [1, 0.1, 0, 0]],
    ["movie", [0.9, 0.2, 0, 0]],
    ["invoice", [0, 0, 1, 0.1]],
    ["Capital", [5, 5, 5, 5]],
    ["bill", [0, 0.1, 0.9, 0.2]],
  ] as [string, number[]][],
};

describe("word-vector table", () => {
  it("round-trips through bytes, keeping plain lowercase words in order", () => {
    const table = parseWordVectorTable(buildWordVectorTable(SOURCE));
    expect(table.words).toEqual(["the", "film", "movie", "invoice", "bill"]);
    expect(table.dimensions).toBe(4);
    const row = 2;
    const restored = Array.from(
      { length: 4 },
      (_, d) => (table.vectors[row * 4 + d] as number) * (table.scales[row] as number),
    );
    for (const [d, value] of restored.entries())
      expect(value).toBeCloseTo([0.9, 0.2, 0, 0][d] as number, 2);
  });

  it("reads the same vectors from a Node Buffer (readFileSync) as from a Uint8Array", () => {
    const bytes = buildWordVectorTable(SOURCE);
    // Buffer.slice is a view of the whole buffer: a parser that slices then takes .buffer reads
    // the file's header as vectors
    const fromBuffer = parseWordVectorTable(Buffer.from(bytes));
    const fromArray = parseWordVectorTable(bytes);
    expect(Array.from(fromBuffer.vectors)).toEqual(Array.from(fromArray.vectors));
    expect(fromBuffer.vectors.length).toBe(5 * 4);
  });

  it("keeps at most the requested number of words", () => {
    expect(parseWordVectorTable(buildWordVectorTable(SOURCE, { words: 2 })).words).toEqual([
      "the",
      "film",
    ]);
  });

  it("rejects bytes that are not a table, naming the fix", () => {
    expect(() => parseWordVectorTable(new Uint8Array([1, 2, 3]))).toThrow(
      /not a toolsift word-vector table.*buildWordVectorTable/,
    );
    const bytes = buildWordVectorTable(SOURCE);
    expect(() => parseWordVectorTable(bytes.subarray(0, bytes.length - 3))).toThrow(
      /shorter than its header/,
    );
  });
});

describe("createWordVectorEmbedder", () => {
  it("places texts about one thing close together, and splits identifiers", async () => {
    const embedder = createWordVectorEmbedder(parseWordVectorTable(buildWordVectorTable(SOURCE)));
    const [film, movie, bill, invoice, unknown] = await embedder.embed(
      ["the film", "search_movie", "payBill", "create invoice", "zzz"],
      { kind: "tool" },
    );
    expect(cosine(film as Float32Array, movie as Float32Array)).toBeGreaterThan(0.9);
    expect(cosine(bill as Float32Array, invoice as Float32Array)).toBeGreaterThan(0.9);
    expect(cosine(film as Float32Array, invoice as Float32Array)).toBeLessThan(0.2);
    expect(Array.from(unknown as Float32Array)).toEqual([0, 0, 0, 0]);
    expect(embedder.id).toBe("word-vectors-5x4");
  });
});

describe("createHTTPEmbedder", () => {
  async function serve(
    handler: (body: { model: string; input: string[] }, auth?: string) => [number, unknown],
  ) {
    const server = createServer((request, response) => {
      let text = "";
      request.on("data", (chunk) => {
        text += chunk;
      });
      request.on("end", () => {
        const [status, body] = handler(JSON.parse(text), request.headers.authorization);
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/v1/`,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it("posts model and prefixed inputs, and orders vectors by index", async () => {
    const seen: { model: string; input: string[]; auth?: string }[] = [];
    const server = await serve((body, auth) => {
      seen.push({ ...body, ...(auth ? { auth } : {}) });
      const data = body.input
        .map((text, index) => ({ index, embedding: [text.length, index] }))
        .reverse();
      return [200, { data }];
    });
    try {
      const embedder = createHTTPEmbedder({
        baseURL: server.url,
        model: "m1",
        apiKey: "k",
        queryPrefix: "query: ",
      });
      const vectors = await embedder.embed(["ab", "abcd"], { kind: "query" });
      expect(vectors.map((vector) => Array.from(vector))).toEqual([
        [9, 0],
        [11, 1],
      ]);
      expect(seen[0]).toEqual({
        model: "m1",
        input: ["query: ab", "query: abcd"],
        auth: "Bearer k",
      });
      expect(embedder.id).toBe("http:m1");
    } finally {
      await server.close();
    }
  });

  it("fails with the status and the endpoint", async () => {
    const server = await serve(() => [429, { error: "slow down" }]);
    try {
      const embedder = createHTTPEmbedder({ baseURL: server.url, model: "m1" });
      await expect(embedder.embed(["a"], { kind: "tool" })).rejects.toThrow(
        /\/v1\/embeddings answered 429/,
      );
    } finally {
      await server.close();
    }
  });
});
