/** A local OpenAI-compatible `/embeddings` endpoint for tests: deterministic vectors, and a log of
 * every text it was asked to embed. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// words that mean the same thing share a dimension, as a real model would place them close
const SAME = new Map([
  ["flick", "movie"],
  ["film", "movie"],
  ["movies", "movie"],
]);
const DIMENSIONS = 16;

/** A small catalog where "flick" is no tool's word but means the movie tool. */
export const MEDIA_TOOLS = [
  ["search_movie", "Find a movie by its title and show its cast"],
  ["create_issue", "Create a GitHub issue in a repository"],
  ["send_message", "Send a Slack message to a channel"],
  ["read_file", "Read a file from disk"],
  ["list_repos", "List the repositories of a user"],
  ["get_weather", "Current weather for a city"],
  ["book_flight", "Book a flight between two airports"],
  ["translate_text", "Translate text between languages"],
].map(([name, description]) => ({ name, description, inputSchema: { type: "object" } }));

/** A vector per text: one dimension per (canonical) word, hashed. */
export function fakeVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0.01);
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
    if (raw === "" || raw === "query" || raw === "passage") continue;
    const word = SAME.get(raw) ?? raw;
    let hash = 7;
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % DIMENSIONS] = (vector[hash % DIMENSIONS] as number) + 1;
  }
  return vector;
}

export interface EmbeddingServer {
  url: string;
  /** Every request's texts, in order. */
  requests: string[][];
  /** The Authorization headers seen. */
  auth: (string | undefined)[];
  /** Texts embedded with the tool prefix ("passage: "). */
  toolTexts(): string[];
  /** Changes the answer from now on (default: fakeVector of each text). */
  answer: (texts: string[]) => { status?: number; body: string };
  close(): Promise<void>;
}

/** Starts the endpoint on a free loopback port; its base URL ends in /v1. */
export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const state: EmbeddingServer = {
    url: "",
    requests: [],
    auth: [],
    toolTexts: () => state.requests.flat().filter((text) => text.startsWith("passage: ")),
    answer: (texts) => ({
      body: JSON.stringify({
        data: texts.map((text, index) => ({ index, embedding: fakeVector(text) })),
      }),
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const { input } = JSON.parse(body) as { input: string[] };
      state.requests.push(input);
      state.auth.push(request.headers.authorization);
      const { status = 200, body: answer } = state.answer(input);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** A loopback URL where nothing listens (a port that was free a moment ago). */
export async function downURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}
