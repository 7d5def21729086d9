/** `createSpillStore`: keeps full results that were cut, so the model can page through them. */

import type { ToolDefinition } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";
import { safeCutIndex } from "../internal/index.js";
import type { TokenCounter } from "../tokens/index.js";
import { o200kCounter, utf8Length } from "../tokens/index.js";
import { longestFitting, measureTokens } from "./truncate-text.js";
import { isToolResult } from "./truncate-text-value.js";

/** One page of a spilled result. `page` is 1-based; `pages` is estimated until `done`. */
export interface SpillPage {
  id: string;
  text: string;
  page: number;
  pages: number;
  done: boolean;
}

/** Options of `createSpillStore`. */
export interface SpillStoreOptions {
  /** Most entries kept; default 64. */
  maxEntries?: number;
  /** Most UTF-8 bytes kept over all entries; default 32 MiB. */
  maxBytes?: number;
  /** Entries expire this long after their last write or read; default 30 minutes. */
  ttlMs?: number;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** Cuts pages; default `o200kCounter`. */
  counter?: TokenCounter;
  /** Default page size in tokens; default 2,000. */
  pageTokens?: number;
}

/** A bounded store of full results, evicted by TTL, then least recently used, by count and bytes. */
export interface SpillStore {
  /** Stores a result (text as is, MCP text blocks joined, other values as indented JSON) for
   * `session` (default ""); undefined when it alone exceeds `maxBytes`. */
  put(value: unknown, options?: { session?: string }): string | undefined;
  /** Reads page `page` (1-based, default 1) of a result stored for `session` (default ""):
   * undefined when the id is unknown, expired or another session's. */
  read(
    id: string,
    options?: { page?: number; pageTokens?: number; session?: string },
  ): SpillPage | undefined;
  has(id: string): boolean;
  delete(id: string): boolean;
  /** Drops every entry stored for `session` (its client went away). */
  clear(session: string): void;
  readonly size: number;
  readonly bytes: number;
  readonly pageTokens: number;
}

interface Entry {
  /** Only this session reads it: an id seen in one conversation opens nothing in another. */
  session: string;
  text: string;
  bytes: number;
  touched: number;
  /** Page start offsets per page size, filled as pages are read. */
  starts: Map<number, number[]>;
}

/** Renders a stored value as the text pages are cut from. */
export function spillText(value: unknown): string {
  if (typeof value === "string") return value;
  if (isToolResult(value)) {
    const texts = value.content.map((block) =>
      block.type === "text" ? block.text : `[${block.type} block not stored]`,
    );
    if (
      value.structuredContent !== undefined &&
      !value.content.some((block) => block.type === "text")
    ) {
      texts.push(JSON.stringify(value.structuredContent, null, 2));
    }
    return texts.join("\n\n");
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A fresh id: 128 random bits, so an id can be neither guessed nor derived from the content. */
function randomSpillId(): string {
  // Web Crypto, so the budget layer runs in browsers and workers as well as Node
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return `spill_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** Creates a spill store; see `SpillStoreOptions` for the defaults. */
export function createSpillStore(options: SpillStoreOptions = {}): SpillStore {
  const maxEntries = options.maxEntries ?? 64;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const ttlMs = options.ttlMs ?? 30 * 60 * 1000;
  const now = options.now ?? Date.now;
  const counter = options.counter ?? o200kCounter;
  const defaultPageTokens = options.pageTokens ?? 2_000;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return false;
    entries.delete(id);
    bytes -= entry.bytes;
    return true;
  };
  const evict = () => {
    const time = now();
    for (const [id, entry] of entries) if (time - entry.touched > ttlMs) remove(id);
    // Map order is least recently used first, because reads re-insert
    for (const id of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(id);
    }
  };
  const live = (id: string, session?: string): Entry | undefined => {
    evict();
    const entry = entries.get(id);
    if (!entry || (session !== undefined && entry.session !== session)) return undefined;
    entry.touched = now();
    entries.delete(id);
    entries.set(id, entry);
    return entry;
  };

  return {
    put(value, putOptions = {}) {
      const text = spillText(value);
      // each UTF-16 unit is at least one UTF-8 byte: a text longer than the store is never read
      if (text.length > maxBytes) return undefined;
      const size = utf8Length(text);
      if (size > maxBytes) return undefined;
      const id = randomSpillId();
      const session = putOptions.session ?? "";
      entries.set(id, { session, text, bytes: size, touched: now(), starts: new Map() });
      bytes += size;
      evict();
      return entries.has(id) ? id : undefined;
    },
    read(id, readOptions = {}) {
      const page = readOptions.page ?? 1;
      const pageTokens = readOptions.pageTokens ?? defaultPageTokens;
      if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageTokens) || pageTokens < 16) {
        throw new ToolsiftError(
          "invalid_arguments",
          `Spill read of "${id}": page must be an integer ≥ 1 and pageTokens an integer ≥ 16 (got ${page}, ${pageTokens}).`,
        );
      }
      const entry = live(id, readOptions.session ?? "");
      if (!entry) return undefined;
      return pageOf(id, entry, page, pageTokens, counter);
    },
    has: (id) => entries.has(id) && live(id) !== undefined,
    delete: remove,
    clear(session) {
      for (const [id, entry] of entries) if (entry.session === session) remove(id);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    pageTokens: defaultPageTokens,
  };
}

function pageOf(
  id: string,
  entry: Entry,
  page: number,
  pageTokens: number,
  counter: TokenCounter,
): SpillPage {
  const { text } = entry;
  let starts = entry.starts.get(pageTokens);
  if (!starts) {
    starts = [0];
    entry.starts.set(pageTokens, starts);
  }
  // pages are cut in order, so reading page k cuts the pages before it once
  while (starts.length <= page && (starts[starts.length - 1] ?? 0) < text.length) {
    const from = starts[starts.length - 1] ?? 0;
    let length = longestFitting(
      text.length - from,
      pageTokens,
      (n) => text.slice(from, from + n),
      counter,
    );
    const newline = text.lastIndexOf("\n", from + length - 1);
    if (from + length < text.length && newline > from + length * 0.8) length = newline + 1 - from;
    // a page never ends inside a surrogate pair (a pair alone past the page size stays whole)
    const end = safeCutIndex(text, from + Math.max(1, length));
    starts.push(end > from ? end : safeCutIndex(text, from + 1, true));
  }
  const start = starts[page - 1];
  if (start === undefined || start >= text.length) {
    return { id, text: "", page, pages: starts.length - 1, done: true };
  }
  const end = starts[page] ?? text.length;
  const done = end >= text.length;
  const estimated = Math.ceil(measureTokens(text, counter).tokens / pageTokens);
  return {
    id,
    text: text.slice(start, end),
    page,
    pages: done ? page : Math.max(page + 1, estimated),
    done,
  };
}

/** The `tool_result_read` meta tool: reads more pages of a result that was cut and stored. */
export const spillReadToolDefinition: ToolDefinition = {
  name: "tool_result_read",
  description:
    "Read more of a tool result that was cut to fit the context. Pass the id from the result's note and the page to read (page 1 is the beginning).",
  inputSchema: {
    type: "object",
    properties: {
      id: {
        type: "string",
        description:
          "The spill id from the truncated result, e.g. spill_9f86d081884c7d659a2feaa0c55ad015.",
      },
      page: { type: "integer", minimum: 1, description: "Page to read, starting at 1. Default 1." },
    },
    required: ["id"],
    additionalProperties: false,
  },
  defer: "never",
};
