/** An embedder for any OpenAI-compatible `/embeddings` endpoint (OpenAI, Azure, Ollama, vLLM…). */

import type { Embedder } from "../search/index.js";

/** Options of `createHTTPEmbedder`. */
export interface HTTPEmbedderOptions {
  /** The API base, e.g. `https://api.openai.com/v1`; `/embeddings` is appended. */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Extra headers (e.g. an Azure `api-key`). */
  headers?: Record<string, string>;
  /** Prepended to query texts, for models trained with prefixes (e.g. `"query: "`). */
  queryPrefix?: string;
  /** Prepended to tool texts (e.g. `"passage: "`). */
  toolPrefix?: string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Largest answer read, in bytes; a longer one is cut off and fails the call. Default 64 MiB
   * (64 texts of 3,072 dimensions take about 4 MB). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The body of a response as text, read in chunks and cancelled past `limit` bytes. */
async function readLimited(response: Response, limit: number, url: string): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  const tooLong = () =>
    new Error(
      `${url} answered with over ${limit} bytes; raise maxResponseBytes if the model's vectors are that large`,
    );
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    throw tooLong();
  }
  if (!response.body) return await response.text();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLong();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Creates an embedder that posts `{ model, input }` to `${baseURL}/embeddings` and reads
 * `data[i].embedding` (ordered by `data[i].index`). Errors name the status and the endpoint.
 */
export function createHTTPEmbedder(options: HTTPEmbedderOptions): Embedder {
  const url = `${options.baseURL.replace(/\/+$/, "")}/embeddings`;
  const send = options.fetch ?? fetch;
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return {
    id: `http:${options.model}`,
    async embed(texts, { kind, signal }) {
      const prefix = (kind === "query" ? options.queryPrefix : options.toolPrefix) ?? "";
      const response = await send(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          ...options.headers,
        },
        body: JSON.stringify({ model: options.model, input: texts.map((text) => prefix + text) }),
        // toolsift aborts on its time limit: the request and its download stop there
        ...(signal ? { signal } : {}),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${url} answered ${response.status} ${response.statusText}`.trim());
      }
      const text = await readLimited(response, limit, url);
      let body: { data?: { index?: number; embedding?: unknown }[] };
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${url} answered with text that is not JSON (${text.length} characters)`);
      }
      const data = Array.isArray(body.data) ? [...body.data] : [];
      data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (data.length !== texts.length) {
        throw new Error(`${url} returned ${data.length} embeddings for ${texts.length} texts`);
      }
      return data.map((item, index) => {
        if (!Array.isArray(item.embedding))
          throw new Error(`${url} returned no embedding array at position ${index}`);
        return Float32Array.from(item.embedding as number[]);
      });
    },
  };
}
