// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs write ${VAR} in plain strings on purpose
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "./gateway-config.js";
import { loadGatewayConfig } from "./load-gateway-config.js";

const KEY = "sk-live-0123456789abcdef";
const env = { EMBED_KEY: KEY };
const servers = { memory: { command: "npx" } };
const parse = (embedder: unknown) => parseGatewayConfig({ servers, embedder }, { env });

describe("the gateway config's embedder block", () => {
  it("reads an endpoint with its key from the environment, prefixes, weight and time limit", () => {
    const { config, problems } = parse({
      baseURL: "http://localhost:11434/v1",
      model: "nomic-embed-text",
      apiKey: "${EMBED_KEY}",
      queryPrefix: "search_query: ",
      toolPrefix: "search_document: ",
      weight: 0.2,
      timeoutMs: 3000,
    });
    expect(problems).toEqual([]);
    expect(config.embedder).toEqual({
      kind: "http",
      baseURL: "http://localhost:11434/v1",
      model: "nomic-embed-text",
      apiKey: KEY,
      queryPrefix: "search_query: ",
      toolPrefix: "search_document: ",
      weight: 0.2,
      timeoutMs: 3000,
    });
  });

  it("names every problem with its path and a did-you-mean, never the key", () => {
    const { problems } = parse({
      baseUrl: "http://localhost/v1",
      modle: "m",
      apiKey: KEY,
      weight: 2,
    });
    expect(problems).toEqual([
      'embedder.baseUrl: unknown key; did you mean "baseURL"?',
      'embedder.modle: unknown key; did you mean "model"?',
      "embedder.weight: expected a number from 0 to 1 (default 0.1), got 2.",
      expect.stringMatching(/^embedder: needs "baseURL" \(with "model"\) or "wordVectors"/),
    ]);
    const literal = parse({ baseURL: "https://api.openai.com/v1", model: "m", apiKey: KEY });
    expect(literal.problems).toEqual([
      expect.stringMatching(
        /^embedder.apiKey: write the key as a variable, e.g. "\$\{OPENAI_API_KEY\}"/,
      ),
    ]);
    expect(JSON.stringify([problems, literal.problems])).not.toContain(KEY);
  });

  it("reports a missing model, a bad address, both sources, an unset variable, a top-level typo", () => {
    expect(parse({ baseURL: "localhost:11434" }).problems).toEqual([
      expect.stringMatching(/^embedder.baseURL: expected an http:\/\/ or https:\/\/ address/),
      expect.stringMatching(/^embedder.model: missing; name the embedding model/),
    ]);
    expect(parse({ baseURL: "http://x/v1", model: "m", wordVectors: "w.bin" }).problems).toEqual([
      expect.stringMatching(/^embedder: has both "baseURL" and "wordVectors"/),
    ]);
    expect(parse({ baseURL: "http://x/v1", model: "m", apiKey: "${NOPE}" }).problems).toEqual([
      "embedder.apiKey: ${NOPE} is not set in the environment; export NOPE, or write ${NOPE:-default}.",
    ]);
    expect(parse("http://x").problems).toEqual([
      expect.stringMatching(/^embedder: expected an object like/),
    ]);
    expect(parseGatewayConfig({ servers, embeder: {} }, { env }).problems).toEqual([
      'embeder: unknown key; did you mean "embedder"?',
    ]);
  });

  it("resolves a word-vector file against the config's folder", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "toolsift-embedder-config-"));
    const file = path.join(dir, "gateway.json");
    await writeFile(file, JSON.stringify({ servers, embedder: { wordVectors: "wv.bin" } }));
    const config = await loadGatewayConfig(file, { env });
    expect(config.embedder).toEqual({ kind: "word-vectors", file: path.join(dir, "wv.bin") });
  });
});
