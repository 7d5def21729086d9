// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs write ${VAR} in plain strings on purpose
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capture } from "./__tests__/capture.js";
import {
  downURL,
  type EmbeddingServer,
  MEDIA_TOOLS,
  startEmbeddingServer,
} from "./__tests__/embedding-server.js";
import { inspectCommand } from "./commands/inspect.js";

const KEY = "sk-gateway-5ecret-0123456789";
const TOOLS = MEDIA_TOOLS;

let server: EmbeddingServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** A gateway config whose one server is lazy (its tools from a file; never started here). */
function gatewayConfig(baseURL: string): { config: string; cache: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-gateway-embedder-"));
  writeFileSync(path.join(dir, "tools.json"), JSON.stringify(TOOLS));
  const config = path.join(dir, "gateway.json");
  writeFileSync(
    config,
    JSON.stringify({
      servers: { media: { url: "http://127.0.0.1:9/mcp", lazy: true, catalog: "tools.json" } },
      learning: false,
      embedder: {
        baseURL,
        model: "fake",
        apiKey: "${EMBED_KEY}",
        queryPrefix: "query: ",
        toolPrefix: "passage: ",
      },
    }),
  );
  return { config, cache: path.join(dir, "cache") };
}

/** Runs `inspect --config` until `use` is done; returns what it printed. */
async function withGateway(config: string, cache: string, use: (url: string) => Promise<void>) {
  vi.stubEnv("EMBED_KEY", KEY);
  const io = capture();
  const stop = new AbortController();
  const running = inspectCommand(["--config", config, "--cache", cache], io, stop.signal);
  await expect.poll(() => io.err, { timeout: 30_000 }).toMatch(/connect to http:.*\/mcp/);
  const url = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.err)?.[1] ?? "";
  try {
    await use(url);
  } finally {
    stop.abort();
    expect(await running).toBe(0);
  }
  return io.err;
}

type View = { result: { hits: { name: string; semantic?: unknown }[] } };
const search = async (url: string, query: string) =>
  (await (await fetch(`${url}api/search?q=${encodeURIComponent(query)}`)).json()) as View;

describe("a gateway config's embedder", () => {
  it("makes search hybrid, and a restart embeds no tool again", async () => {
    server = await startEmbeddingServer();
    const { config, cache } = gatewayConfig(server.url);
    const first = await withGateway(config, cache, async (url) => {
      const view = await search(url, "some flick");
      expect(view.result.hits[0]).toMatchObject({ name: "media__search_movie" });
      expect(view.result.hits[0]?.semantic).toBeDefined();
    });
    expect(server.toolTexts()).toHaveLength(TOOLS.length);
    expect(server.auth.every((header) => header === `Bearer ${KEY}`)).toBe(true);
    server.requests.length = 0;
    const second = await withGateway(config, cache, async (url) => {
      // started and stopped: nothing asked of the endpoint until a search
      expect(server?.requests).toEqual([]);
      await search(url, "some flick");
    });
    expect(server.toolTexts()).toEqual([]);
    expect(server.requests).toEqual([["query: some flick"]]);
    for (const text of [first, second]) expect(text).not.toContain(KEY);
    for (const name of readdirSync(cache))
      expect(readFileSync(path.join(cache, name)).toString("latin1")).not.toContain(KEY);
  });

  it("an endpoint that is down leaves search lexical, with one warning over many searches", async () => {
    const { config, cache } = gatewayConfig(await downURL());
    const err = await withGateway(config, cache, async (url) => {
      for (const query of ["weather", "issue", "movie", "weather in Paris"]) {
        const view = await search(url, query);
        expect(view.result.hits.length).toBeGreaterThan(0);
        expect(view.result.hits[0]?.semantic).toBeUndefined();
      }
    });
    const warnings = err.split("\n").filter((line) => line.startsWith("[warn]"));
    expect(warnings).toEqual([expect.stringMatching(/embedder failed .*Results are lexical-only/)]);
  });

  it("keeps the key out of the log and every inspector answer, even when the endpoint echoes it", async () => {
    server = await startEmbeddingServer();
    server.answer = () => ({ status: 401, body: `{"error":"invalid key ${KEY}"}` });
    const { config, cache } = gatewayConfig(server.url);
    const answers: string[] = [];
    const err = await withGateway(config, cache, async (url) => {
      for (const api of [
        "api/search?q=some%20flick",
        "api/catalog",
        "api/sessions",
        "api/learned",
      ]) {
        answers.push(await (await fetch(`${url}${api}`)).text());
      }
    });
    expect(server.auth).toContain(`Bearer ${KEY}`);
    expect(err).toMatch(/\[warn\] .*answered 401/);
    expect(answers.join("\n")).toContain("search_movie");
    for (const text of [err, ...answers]) expect(text).not.toContain(KEY);
  });
});
