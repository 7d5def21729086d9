import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildWordVectorTable } from "../embedders/index.js";
import { capture } from "./__tests__/capture.js";
import {
  downURL,
  type EmbeddingServer,
  fakeVector,
  MEDIA_TOOLS,
  startEmbeddingServer,
} from "./__tests__/embedding-server.js";
import { runCli } from "./run-cli.js";

const TOOLS = MEDIA_TOOLS;

let server: EmbeddingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup(tools = TOOLS) {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-embedder-"));
  const catalog = path.join(dir, "tools.json");
  writeFileSync(catalog, JSON.stringify(tools));
  const queries = path.join(dir, "queries.jsonl");
  writeFileSync(
    queries,
    ["find a flick", "open an issue", "weather in Paris", "translate this"]
      .map((query, index) => JSON.stringify({ id: `q${index}`, query, relevant: [] }))
      .join("\n"),
  );
  return { dir, catalog, queries, cache: path.join(dir, "cache") };
}

/** An `--embedder FILE.json` block for the local endpoint, with prefixes. */
function embedderFile(dir: string, block: Record<string, unknown>): string {
  const file = path.join(dir, "embedder.json");
  writeFileSync(
    file,
    JSON.stringify({ queryPrefix: "query: ", toolPrefix: "passage: ", ...block }),
  );
  return file;
}

async function cli(args: string[], env: Record<string, string> = {}) {
  const io = capture({ env: { ...env } });
  const code = await runCli(args, io);
  return { code, out: io.out, err: io.err };
}

const warnings = (text: string) => text.split("\n").filter((line) => line.startsWith("warning:"));

describe("the CLI's embedder and its vector cache", () => {
  it("embeds the tools once: a second run sends no tool text, only its query", async () => {
    server = await startEmbeddingServer();
    const { dir, catalog, cache } = setup();
    const file = embedderFile(dir, { baseURL: server.url, model: "fake" });
    const args = ["search", "find a flick", "--catalog", catalog, "--cache", cache];
    const first = await cli([...args, "--embedder", file, "--json"]);
    expect(first.err).toBe("");
    expect(server.toolTexts()).toHaveLength(TOOLS.length);
    const hit = JSON.parse(first.out).hits[0];
    // "flick" is no word of the catalog: only similarity finds the movie tool
    expect(hit.name).toBe("search_movie");
    expect(hit.semantic.zScore).toBeGreaterThan(1);
    expect(readdirSync(cache).filter((name) => name.startsWith("vectors-"))).toHaveLength(1);

    server.requests.length = 0;
    const second = await cli([...args, "--embedder", file, "--json"]);
    expect(second.out).toBe(first.out);
    expect(server.toolTexts()).toEqual([]);
    expect(server.requests).toEqual([["query: find a flick"]]);
  });

  it("a changed tool is embedded again, alone", async () => {
    server = await startEmbeddingServer();
    const { dir, catalog, cache, queries } = setup();
    const file = embedderFile(dir, { baseURL: server.url, model: "fake" });
    const rank = [
      "rank",
      "--catalog",
      catalog,
      "--queries",
      queries,
      "--cache",
      cache,
      "--embedder",
      file,
    ];
    expect((await cli(rank)).code).toBe(0);
    server.requests.length = 0;
    const changed = TOOLS.map((tool) =>
      tool.name === "get_weather" ? { ...tool, description: "Weather forecast for a town" } : tool,
    );
    writeFileSync(catalog, JSON.stringify(changed));
    const run = await cli(rank);
    expect(run.err).toBe("");
    expect(server.toolTexts()).toEqual([
      expect.stringMatching(/^passage: get weather\. Weather forecast/),
    ]);
  });

  it("another model or prefix is another cache file (nothing embedded by one is used by the other)", async () => {
    server = await startEmbeddingServer();
    const { dir, catalog, cache } = setup();
    const args = ["search", "flick", "--catalog", catalog, "--cache", cache];
    await cli([...args, "--embedder", embedderFile(dir, { baseURL: server.url, model: "a" })]);
    server.requests.length = 0;
    await cli([...args, "--embedder", embedderFile(dir, { baseURL: server.url, model: "b" })]);
    expect(server.toolTexts()).toHaveLength(TOOLS.length);
    expect(readdirSync(cache).filter((name) => name.startsWith("vectors-"))).toHaveLength(2);
  });

  it("an endpoint that is down gives the lexical ranking with exactly one warning", async () => {
    const { catalog, queries, cache } = setup();
    const lexical = await cli(["rank", "--catalog", catalog, "--queries", queries, "--no-cache"]);
    const url = await downURL();
    const run = await cli([
      "rank",
      ...["--catalog", catalog, "--queries", queries, "--cache", cache],
      ...["--embedder-url", url, "--embedder-model", "m"],
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toBe(lexical.out);
    expect(warnings(run.err)).toHaveLength(1);
    expect(run.err).toMatch(/embedder failed .*lexical/);
  });

  it("warns about vectors of the wrong length or with infinite values, and stays lexical", async () => {
    for (const [why, answer] of [
      [
        "dimensions",
        (texts: string[]) =>
          texts.map(
            (_, index) => `{"index":${index},"embedding":[${index === 1 ? "1,2,3" : "1,2"}]}`,
          ),
      ],
      [
        "NaN or infinite",
        (texts: string[]) => texts.map((_, index) => `{"index":${index},"embedding":[1,1e999]}`),
      ],
    ] as const) {
      server = await startEmbeddingServer();
      server.answer = (texts) => ({ body: `{"data":[${answer(texts).join(",")}]}` });
      const { catalog, cache } = setup();
      const lexical = await cli([
        "search",
        "weather",
        "--catalog",
        catalog,
        "--no-cache",
        "--json",
      ]);
      const run = await cli([
        "search",
        ...["weather", "--catalog", catalog, "--cache", cache, "--json"],
        ...["--embedder-url", server.url, "--embedder-model", "m"],
      ]);
      expect(run.out, why).toBe(lexical.out);
      expect(warnings(run.err), why).toHaveLength(1);
      expect(run.err, why).toContain(why);
      // nothing wrong is cached: no vector file was written
      expect(
        readdirSync(cache).filter((name) => name.startsWith("vectors-")),
        why,
      ).toEqual([]);
      await server.close();
      server = undefined;
    }
  });

  it("a damaged cache file warns once, is embedded again and replaced", async () => {
    server = await startEmbeddingServer();
    const { dir, catalog, cache } = setup();
    const args = ["search", "flick", "--catalog", catalog, "--cache", cache];
    const embedder = ["--embedder", embedderFile(dir, { baseURL: server.url, model: "fake" })];
    await cli([...args, ...embedder]);
    const [name] = readdirSync(cache).filter((entry) => entry.startsWith("vectors-"));
    const file = path.join(cache, name as string);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0xff;
    writeFileSync(file, bytes);
    server.requests.length = 0;
    const damaged = await cli([...args, ...embedder]);
    expect(warnings(damaged.err)).toEqual([
      expect.stringMatching(/vector cache file .* not used \(its checksum does not match\)/),
    ]);
    expect(server.toolTexts()).toHaveLength(TOOLS.length);
    server.requests.length = 0;
    const again = await cli([...args, ...embedder]);
    expect(again.err).toBe("");
    expect(server.toolTexts()).toEqual([]);
  });

  it("never shows the API key: not on a refusal, not in the cache, not in a config problem", async () => {
    const key = "sk-test-5ecret-key-0123456789";
    server = await startEmbeddingServer();
    server.answer = () => ({ status: 401, body: `{"error":"bad key ${key}"}` });
    const { catalog, cache } = setup();
    const env = { EMBED_KEY: key };
    const run = await cli(
      [
        "search",
        ...["issue", "--catalog", catalog, "--cache", cache],
        ...[
          "--embedder-url",
          server.url,
          "--embedder-model",
          "m",
          "--embedder-key-env",
          "EMBED_KEY",
        ],
      ],
      env,
    );
    expect(server.auth[0]).toBe(`Bearer ${key}`);
    expect(run.err).toMatch(/answered 401/);
    const bad = await cli(
      [
        "search",
        "issue",
        "--catalog",
        catalog,
        "--embedder-url",
        "ftp://x",
        "--embedder-key-env",
        "EMBED_KEY",
      ],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--embedder-url: expected an http/);
    expect(bad.err).toMatch(/--embedder-model: missing/);
    for (const text of [run.out, run.err, bad.out, bad.err]) expect(text).not.toContain(key);
    for (const name of readdirSync(cache))
      expect(readFileSync(path.join(cache, name)).toString("latin1")).not.toContain(key);
  });

  it("refuses a key given as a value, and names an unset variable", async () => {
    const { catalog } = setup();
    const literal = await cli([
      "search",
      ...["issue", "--catalog", catalog, "--embedder-url", "http://127.0.0.1:9/v1"],
      ...["--embedder-model", "m", "--embedder-key-env", "sk-abc"],
    ]);
    expect(literal.err).toMatch(/--embedder-key-env takes the name of a variable/);
    expect(literal.err).not.toContain("sk-abc\n");
    const unset = await cli([
      "search",
      ...["issue", "--catalog", catalog, "--embedder-url", "http://127.0.0.1:9/v1"],
      ...["--embedder-model", "m", "--embedder-key-env", "NOT_SET_ANYWHERE"],
    ]);
    expect(unset.err).toMatch(/--embedder-key-env: \$\{NOT_SET_ANYWHERE\} is not set/);
  });

  it("eval takes the embedder too: a query in none of the tools' words finds the movie tool", async () => {
    server = await startEmbeddingServer();
    const { dir, catalog } = setup();
    const labelled = path.join(dir, "labelled.jsonl");
    writeFileSync(
      labelled,
      JSON.stringify({ id: "a", query: "some flick", relevant: ["search_movie"] }),
    );
    const base = ["eval", "--catalog", catalog, "--queries", labelled, "--json", "--no-cache"];
    const lexical = JSON.parse((await cli(base)).out);
    const file = embedderFile(dir, { baseURL: server.url, model: "fake" });
    const hybrid = JSON.parse((await cli([...base, "--embedder", file])).out);
    expect(lexical.recallAt[1]).toBe(0);
    expect(hybrid.recallAt[1]).toBe(1);
  });

  it("takes the key out of a message that would carry it (a key in the endpoint's path)", async () => {
    const key = "sk-in-path-0123456789";
    server = await startEmbeddingServer();
    server.answer = () => ({ status: 404, body: "{}" });
    const { catalog } = setup();
    const run = await cli(
      [
        "search",
        ...["issue", "--catalog", catalog, "--no-cache"],
        ...["--embedder-url", `${server.url}/${key}`, "--embedder-model", "m"],
        ...["--embedder-key-env", "EMBED_KEY"],
      ],
      { EMBED_KEY: key },
    );
    expect(run.err).toMatch(/\/v1\/\[key\]\/embeddings answered 404/);
    expect(run.err).not.toContain(key);
  });

  it("--word-vectors: an offline table, its vectors cached like an endpoint's", async () => {
    const { dir, catalog, cache } = setup();
    // every word of the tools (a tool none of whose words is in the table has no vector)
    const words = [
      ...new Set(
        TOOLS.flatMap((tool) => `${tool.name} ${tool.description}`.toLowerCase().split(/[^a-z]+/)),
      ),
      "flick",
    ].filter((word) => word !== "");
    const table = buildWordVectorTable({
      dimensions: 16,
      entries: words.map((word) => [word, fakeVector(word)] as const),
    });
    const file = path.join(dir, "words.bin");
    writeFileSync(file, table);
    const run = await cli([
      "search",
      ...["some flick", "--catalog", catalog, "--cache", cache, "--json"],
      ...["--word-vectors", file],
    ]);
    expect(run.err).toBe("");
    expect(JSON.parse(run.out).hits[0].name).toBe("search_movie");
    expect(readdirSync(cache).filter((name) => name.startsWith("vectors-"))).toHaveLength(1);
    const missing = await cli([
      "search",
      "x",
      "--catalog",
      catalog,
      "--word-vectors",
      `${file}.gone`,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/embedder.wordVectors: cannot read .*gone \(ENOENT\)/);
  });
});
