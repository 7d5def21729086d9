/**
 * The `embedder` block of a gateway config (and of `toolsift search --embedder FILE.json`): an
 * OpenAI-compatible `/embeddings` endpoint or a word-vector file, for hybrid search
 * (docs/semantic-search.md "From the gateway and the CLI").
 */
import { suggestNames } from "../../internal/index.js";
import { createReader, isObject, kind, optional, type Reader } from "./config-reader.js";
import type { VariableContext } from "./expand-variables.js";

/** What the block asks for, checked; `apiKey` is the expanded secret (never printed). */
export type EmbedderConfig = (
  | {
      kind: "http";
      baseURL: string;
      model: string;
      apiKey?: string;
      queryPrefix?: string;
      toolPrefix?: string;
    }
  | {
      kind: "word-vectors";
      /** The table file (`scripts/build-word-vectors.ts`); relative paths are resolved by the
       * loader against the config's folder. */
      file: string;
    }
) & {
  /** Share of a hit's score that similarity gives, 0–1 (search.semanticWeight). */
  weight?: number;
  /** Milliseconds a search waits for embeddings (search.embedTimeoutMs). */
  timeoutMs?: number;
};

export const EMBEDDER_KEYS = [
  "baseURL",
  "model",
  "apiKey",
  "queryPrefix",
  "toolPrefix",
  "wordVectors",
  "weight",
  "timeoutMs",
] as const;

const EXAMPLE = `{"baseURL": "https://api.openai.com/v1", "model": "text-embedding-3-small", "apiKey": "\${OPENAI_API_KEY}"} or {"wordVectors": "word-vectors.bin"}`;

/** Every key of the block must be known: a mistyped `apiKey` would otherwise send no key. */
function checkEmbedderKeys(read: Reader, path: string, raw: Record<string, unknown>): void {
  for (const key of Object.keys(raw)) {
    if ((EMBEDDER_KEYS as readonly string[]).includes(key)) continue;
    const [closest] = suggestNames(key, EMBEDDER_KEYS, { max: 1 });
    read.problems.push(
      closest
        ? `${path}.${key}: unknown key; did you mean "${closest}"?`
        : `${path}.${key}: unknown key; the keys are ${EMBEDDER_KEYS.join(", ")}.`,
    );
  }
}

/** The key must come from the environment: a key written into a config file is a leaked key. */
function readApiKey(read: Reader, path: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && !raw.includes("${")) {
    // the value itself is never repeated: it is a secret
    read.problems.push(
      `${path}.apiKey: write the key as a variable, e.g. "\${OPENAI_API_KEY}", and export it; a key written in the file is readable by anyone who can read the file.`,
    );
    return undefined;
  }
  const key = read.string(`${path}.apiKey`, raw);
  return key === "" ? undefined : key;
}

function readShare(read: Reader, path: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "number" && raw >= 0 && raw <= 1) return raw;
  read.problems.push(
    `${path}: expected a number from 0 to 1 (default 0.1), got ${JSON.stringify(raw)}.`,
  );
  return undefined;
}

/** Reads the block at `path` (e.g. "embedder"); problems go to the reader. */
export function readEmbedder(read: Reader, path: string, raw: unknown): EmbedderConfig | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    read.problems.push(`${path}: expected an object like ${EXAMPLE}, got ${kind(raw)}.`);
    return undefined;
  }
  checkEmbedderKeys(read, path, raw);
  const common = {
    ...optional("weight", readShare(read, `${path}.weight`, raw.weight)),
    ...optional("timeoutMs", read.positive(`${path}.timeoutMs`, raw.timeoutMs)),
  };
  const baseURL = read.string(`${path}.baseURL`, raw.baseURL);
  const file = read.string(`${path}.wordVectors`, raw.wordVectors);
  if (baseURL !== undefined && file !== undefined) {
    read.problems.push(
      `${path}: has both "baseURL" and "wordVectors"; keep "baseURL" for an embedding service or "wordVectors" for a local table.`,
    );
    return undefined;
  }
  if (file !== undefined) {
    const extra = ["model", "apiKey", "queryPrefix", "toolPrefix"].filter((key) => key in raw);
    if (extra.length > 0)
      read.problems.push(`${path}: ${extra.join(", ")} go with "baseURL", not "wordVectors".`);
    return { kind: "word-vectors", file, ...common };
  }
  if (baseURL === undefined) {
    read.problems.push(
      `${path}: needs "baseURL" (with "model") or "wordVectors"; e.g. ${EXAMPLE}.`,
    );
    return undefined;
  }
  if (!/^https?:\/\/[^/]/.test(baseURL))
    read.problems.push(
      `${path}.baseURL: expected an http:// or https:// address such as "https://api.openai.com/v1", got ${JSON.stringify(baseURL)}.`,
    );
  const model = read.string(`${path}.model`, raw.model);
  if (model === undefined || model === "")
    read.problems.push(
      `${path}.model: missing; name the embedding model, e.g. "text-embedding-3-small" or "nomic-embed-text".`,
    );
  return {
    kind: "http",
    baseURL,
    model: model ?? "",
    ...optional("apiKey", readApiKey(read, path, raw.apiKey)),
    ...optional("queryPrefix", read.string(`${path}.queryPrefix`, raw.queryPrefix)),
    ...optional("toolPrefix", read.string(`${path}.toolPrefix`, raw.toolPrefix)),
    ...common,
  };
}

/** Checks an embedder block on its own (the CLI's `--embedder FILE.json`). */
export function parseEmbedderConfig(
  document: unknown,
  context: VariableContext,
  path = "embedder",
): { config?: EmbedderConfig; problems: string[] } {
  const read = createReader(context);
  const config = readEmbedder(read, path, document);
  return { ...optional("config", config), problems: read.problems };
}
