/**
 * Exact o200k_base and cl100k_base counters backed by gpt-tokenizer, loaded on first use.
 *
 * Loading an encoding costs about 150–250 ms (parsing a 2.4 MB rank table, building maps), so
 * importing toolsift must not pay it. ESM has no synchronous lazy import, so the encoding is
 * loaded on the first `count` through Node's `require` (reached via `process.getBuiltinModule`,
 * so no `node:` import sits in the module graph). Where `require` does not exist (browsers,
 * some bundlers), call `await loadTokenCounter(name)` once first: it uses a dynamic `import()`
 * and makes the synchronous counter usable afterwards.
 */

import { ToolsiftError } from "../errors.js";
import { syncRequire } from "../internal/index.js";
import { estimateByteBound, estimateO200kTokens } from "./o200k-bound.js";
import { countBySegments } from "./split-long-pieces.js";
import type { TokenCounter } from "./token-counter.js";

/** Encodings toolsift can count exactly. */
export type EncodingName = "o200k_base" | "cl100k_base";

interface EncodingApi {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
  isWithinTokenLimit(
    text: string,
    limit: number,
    options?: { disallowedSpecial?: Set<string> },
  ): false | number;
}

// special-token text such as "<|endoftext|>" inside a result is ordinary text, not a control token
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const loaded = new Map<EncodingName, EncodingApi>();

function requireEncoding(name: EncodingName): EncodingApi {
  const cached = loaded.get(name);
  if (cached) return cached;
  const load = syncRequire(import.meta.url);
  if (!load) {
    throw new ToolsiftError(
      "internal",
      `Token encoding "${name}" is not loaded and this runtime has no synchronous require. ` +
        `Call \`await loadTokenCounter("${name}")\` once before counting.`,
    );
  }
  const api = load(`gpt-tokenizer/cjs/encoding/${name}`) as EncodingApi;
  loaded.set(name, api);
  return api;
}

/** Loads an encoding with a dynamic `import()` (works everywhere) and returns its counter. */
export async function loadTokenCounter(name: EncodingName): Promise<TokenCounter> {
  if (!loaded.has(name)) {
    const module = (await (name === "o200k_base"
      ? import("gpt-tokenizer/encoding/o200k_base")
      : import("gpt-tokenizer/encoding/cl100k_base"))) as unknown as EncodingApi;
    if (!loaded.has(name)) loaded.set(name, module);
  }
  return name === "o200k_base" ? o200kCounter : cl100kCounter;
}

/** Whether an encoding is already in memory (counting with it will not pay the load time). */
export function isEncodingLoaded(name: EncodingName): boolean {
  return loaded.has(name);
}

// the longest entry of both vocabularies is 128 bytes, so 128 UTF-16 units (checked by a test)
const MAX_TOKEN_LENGTH = 128;

function createCounter(name: EncodingName, bound: (text: string) => number): TokenCounter {
  return {
    name,
    maxTokenLength: MAX_TOKEN_LENGTH,
    // segments keep hostile long pieces linear; ordinary text is one segment (see the file)
    count: (text) =>
      countBySegments(text, (part) => requireEncoding(name).countTokens(part, PLAIN_TEXT)),
    bound,
    countUpTo(text, limit) {
      return countBySegments(
        text,
        (part, left) => {
          const within = requireEncoding(name).isWithinTokenLimit(part, left, PLAIN_TEXT);
          return within === false ? left + 1 : within;
        },
        limit,
      );
    },
  };
}

/** Exact o200k_base counts (GPT-4o, GPT-4.1, GPT-5, o-series; toolsift's default estimate for Claude and Gemini). */
export const o200kCounter: TokenCounter = createCounter("o200k_base", estimateO200kTokens);

/** Exact cl100k_base counts (GPT-4, GPT-3.5); its fast bound is the UTF-8 byte length. */
export const cl100kCounter: TokenCounter = createCounter("cl100k_base", estimateByteBound);
