/**
 * The embedder of a gateway config's `embedder` block or of the CLI's `--embedder*` flags: the
 * library's HTTP or word-vector embedder, behind a disk cache of tool vectors and a guard that
 * turns an outage into one warning and keeps the API key out of every message.
 */
import { readFileSync } from "node:fs";
import {
  createHTTPEmbedder,
  createWordVectorEmbedder,
  parseWordVectorTable,
} from "../embedders/index.js";
import { ToolsiftError } from "../errors.js";
import { errorText, redactUrls } from "../internal/index.js";
// the block's type only: the MCP layer itself is loaded lazily (load-mcp.ts)
import type { EmbedderConfig } from "../mcp/index.js";
import type { Embedder, EmbedKind } from "../search/index.js";
import type { SearchOptionsOfToolSift } from "../toolsift-options.js";
import { isUsableVector, textKey, VectorCache } from "./vector-cache.js";

/** Options of `openEmbedder`. */
export interface OpenEmbedderOptions {
  /** The cache folder (`cacheDir`); undefined: no vector cache (`--no-cache`). */
  cacheDir: string | undefined;
  warn: (message: string) => void;
  /** After a failure, how long calls fail at once with the same error before the endpoint is
   * tried again (ms). A one-shot command passes Infinity: one warning, no more requests. */
  retryMs?: number;
}

/** An embedder ready for `search` options, and what to do when the run ends. */
export interface OpenedEmbedder {
  search: Pick<SearchOptionsOfToolSift, "embedder" | "semanticWeight" | "embedTimeoutMs">;
  /** Writes new tool vectors to the cache now. */
  flush(): void;
  /** Flushes and aborts requests still in flight (so a command can exit). */
  close(): void;
}

const DEFAULT_RETRY_MS = 30_000;
const FLUSH_DELAY_MS = 2_000;

/** What the tool vectors depend on; the file name is derived from it. Never the key. */
function identityOf(config: EmbedderConfig, table?: Uint8Array): string {
  if (config.kind === "word-vectors")
    return JSON.stringify(["word-vectors", textKey(Buffer.from(table ?? []).toString("base64"))]);
  return JSON.stringify([
    "http",
    config.baseURL.replace(/\/+$/, ""),
    config.model,
    config.queryPrefix ?? "",
    config.toolPrefix ?? "",
  ]);
}

function readTable(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ToolsiftError(
      "invalid_option",
      `embedder.wordVectors: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? errorText(error)}); build it with scripts/build-word-vectors.ts (docs/semantic-search.md).`,
    );
  }
}

/** Builds the embedder of a checked block; a word-vector file that cannot be used throws. */
export function openEmbedder(config: EmbedderConfig, options: OpenEmbedderOptions): OpenedEmbedder {
  let inner: Embedder;
  let identity: string;
  if (config.kind === "word-vectors") {
    const bytes = readTable(config.file);
    inner = createWordVectorEmbedder(parseWordVectorTable(bytes));
    identity = identityOf(config, bytes);
  } else {
    inner = createHTTPEmbedder({
      baseURL: config.baseURL,
      model: config.model,
      ...(config.apiKey !== undefined ? { apiKey: config.apiKey } : {}),
      ...(config.queryPrefix !== undefined ? { queryPrefix: config.queryPrefix } : {}),
      ...(config.toolPrefix !== undefined ? { toolPrefix: config.toolPrefix } : {}),
    });
    identity = identityOf(config);
  }
  const cache =
    options.cacheDir === undefined
      ? undefined
      : VectorCache.open({ identity, dir: options.cacheDir, warn: options.warn });
  const secret = config.kind === "http" ? config.apiKey : undefined;
  const guarded = guardEmbedder(inner, {
    id: `${inner.id ?? "embedder"}@${textKey(identity).slice(0, 12)}`,
    cache,
    secret,
    retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
  });
  return {
    search: {
      embedder: guarded.embedder,
      ...(config.weight !== undefined ? { semanticWeight: config.weight } : {}),
      ...(config.timeoutMs !== undefined ? { embedTimeoutMs: config.timeoutMs } : {}),
    },
    flush: () => cache?.flush(),
    close: () => {
      guarded.abortAll();
      cache?.flush();
    },
  };
}

/** The text of an error with the key and URL credentials taken out. */
function scrubbed(error: unknown, secret: string | undefined): string {
  let text = errorText(error);
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (typeof cause === "string") text += ` (${cause})`;
  if (secret) text = text.split(secret).join("[key]");
  return redactUrls(text);
}

interface GuardOptions {
  id: string;
  cache: VectorCache | undefined;
  secret: string | undefined;
  retryMs: number;
}

/**
 * Wraps an embedder: tool texts found in the cache are not sent; new tool vectors are cached
 * (flushed a little later); while the endpoint is down every call fails at once with the same
 * error object, which semantic search reports only once.
 */
function guardEmbedder(inner: Embedder, options: GuardOptions) {
  const { cache } = options;
  let down: { error: Error; until: number } | undefined;
  const inFlight = new Set<AbortController>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleFlush = () => {
    if (!cache || flushTimer) return;
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      cache.flush();
    }, FLUSH_DELAY_MS);
    flushTimer.unref?.();
  };
  const call = async (texts: readonly string[], kind: EmbedKind, signal?: AbortSignal) => {
    if (down && Date.now() < down.until) throw down.error;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    inFlight.add(controller);
    try {
      const vectors = await inner.embed(texts, { kind, signal: controller.signal });
      down = undefined;
      return vectors;
    } catch (error) {
      const message = `${options.id.split("@")[0]}: ${scrubbed(error, options.secret)}`;
      // the same outage keeps its error object, so it is reported once
      const same = down?.error.message === message;
      down = {
        error: same && down ? down.error : new Error(message),
        until: Date.now() + options.retryMs,
      };
      throw down.error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      inFlight.delete(controller);
    }
  };
  const embedder: Embedder = {
    id: options.id,
    async embed(texts, { kind, signal }) {
      if (kind !== "tool" || !cache) return call(texts, kind, signal);
      const keys = texts.map(textKey);
      const found = keys.map((key) => cache.get(key));
      const missing = keys.flatMap((_, index) => (found[index] === undefined ? [index] : []));
      if (missing.length === 0) return found as Float32Array[];
      const fresh = await call(
        missing.map((index) => texts[index] as string),
        kind,
        signal,
      );
      // a wrong count is semantic search's to report
      if (!Array.isArray(fresh) || fresh.length !== missing.length) return fresh;
      const made = fresh.map((vector) => Float32Array.from(vector as ArrayLike<number>));
      // a batch with one odd vector is suspect as a whole: semantic search reports it, and
      // nothing of it is cached
      if (made.every((vector) => vector.length === made[0]?.length && isUsableVector(vector))) {
        made.forEach((vector, position) => {
          cache.set(keys[missing[position] as number] as string, vector);
        });
      }
      missing.forEach((index, position) => {
        found[index] = fresh[position];
      });
      const vectors = found as Float32Array[];
      scheduleFlush();
      return vectors;
    },
  };
  return {
    embedder,
    abortAll: () => {
      clearTimeout(flushTimer);
      flushTimer = undefined;
      for (const controller of inFlight) controller.abort(new Error("the command ended"));
    },
  };
}
