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
}

/**
 * Creates an embedder that posts `{ model, input }` to `${baseURL}/embeddings` and reads
 * `data[i].embedding` (ordered by `data[i].index`). Errors name the status and the endpoint.
 */
export function createHTTPEmbedder(options: HTTPEmbedderOptions): Embedder {
  const url = `${options.baseURL.replace(/\/+$/, "")}/embeddings`;
  const send = options.fetch ?? fetch;
  return {
    id: `http:${options.model}`,
    async embed(texts, { kind }) {
      const prefix = (kind === "query" ? options.queryPrefix : options.toolPrefix) ?? "";
      const response = await send(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          ...options.headers,
        },
        body: JSON.stringify({ model: options.model, input: texts.map((text) => prefix + text) }),
      });
      if (!response.ok) {
        throw new Error(`${url} answered ${response.status} ${response.statusText}`.trim());
      }
      const body = (await response.json()) as { data?: { index?: number; embedding?: unknown }[] };
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
