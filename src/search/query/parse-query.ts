/** The query language: plain keywords, `select:a,b`, `+required`, `-excluded`, `server:NAME`, `/regex/`. */

import { ToolsiftError } from "../../errors.js";
import type { SearchMode } from "../types.js";

/** A query split into its parts; `kind` says which engine answers it. */
export interface ParsedQuery {
  kind: "keyword" | "select" | "regex" | "browse";
  /** The query with quotes, backticks and operators removed (keyword) or the pattern (regex). */
  text: string;
  /** Optional words, in order. */
  words: string[];
  /** Words every hit must match (`+word`). */
  required: string[];
  /** Words no hit may match (`-word`). */
  excluded: string[];
  /** Lowercase names from `server:NAME`; the index resolves each to catalog servers (`match-servers.ts`). */
  servers: string[];
  /** Names from `select:`, deduplicated, in the order given. */
  select: string[];
  /** Set when the query was longer than `QUERY_READ_CHARS`: how much of it was read. */
  cut?: QueryCut;
}

/** How much of an over-long query was read. */
export interface QueryCut {
  /** Characters read, from the start (the cut falls at a space where there is one). */
  read: number;
  /** The query's whole length. */
  length: number;
}

/** The longest query read, in characters. Far past what a person or a model writes as a request
 * (a search scores at most 32 distinct words), and short enough that a pasted document costs
 * milliseconds: reading a 2.5 MB query took 4 s of one core, in which a host agent's event
 * loop stood still. The rest is not read, and the result says so (`SearchResult.truncated`). */
export const QUERY_READ_CHARS = 20_000;

const QUOTES = /["`\u201c\u201d\u2018\u2019]/g;
const EDGE_SINGLE_QUOTES = /(^|\s)'+|'+(\s|$)/g;
const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u;
const REGEX_LITERAL = /^\/(.+)\/([a-z]*)$/s;

function empty(kind: ParsedQuery["kind"], text: string): ParsedQuery {
  return { kind, text, words: [], required: [], excluded: [], servers: [], select: [] };
}

/** Parses a query string; throws `invalid_query` when it has no letters or digits. */
export function parseQuery(query: string, mode: SearchMode = "auto"): ParsedQuery {
  if (typeof query !== "string") {
    throw new ToolsiftError(
      "invalid_query",
      "The query must be a string; pass words to search for.",
    );
  }
  const trimmed = query.trim();
  if (mode === "regex") return empty("regex", unwrapRegex(trimmed) ?? trimmed);
  if (mode === "auto") {
    const pattern = unwrapRegex(trimmed);
    if (pattern !== undefined) return empty("regex", pattern);
  }
  const cut = cutQuery(trimmed);
  const head = cut ? trimmed.slice(0, cut.read) : trimmed;
  const parsed = parseWords(
    head.replace(QUOTES, " ").replace(EDGE_SINGLE_QUOTES, " ").trim(),
    query,
  );
  if (cut) parsed.cut = cut;
  return parsed;
}

/** Where an over-long query is cut: at the last space before `QUERY_READ_CHARS`, or at the limit
 * when the text has none near it; undefined for a query within it. */
function cutQuery(text: string): QueryCut | undefined {
  if (text.length <= QUERY_READ_CHARS) return undefined;
  const space = text.lastIndexOf(" ", QUERY_READ_CHARS);
  const read = space > QUERY_READ_CHARS / 2 ? space : QUERY_READ_CHARS;
  return { read, length: text.length };
}

/** A keyword, `select:` or browse query from its cleaned text (`query` as given, for errors). */
function parseWords(cleaned: string, query: string): ParsedQuery {
  if (/^select:/i.test(cleaned)) return parseSelect(cleaned.slice("select:".length));
  if (cleaned.length === 0) return empty("browse", "");
  if (!HAS_WORD_CHARACTER.test(cleaned)) {
    throw new ToolsiftError(
      "invalid_query",
      `Query "${query.length > 80 ? `${query.slice(0, 80)}…` : query}" has no letters or digits; search with words such as "create issue".`,
    );
  }
  const parsed = empty("keyword", "");
  const kept: string[] = [];
  for (const token of cleaned.split(/\s+/)) {
    if (/^server:/i.test(token)) {
      const server = token.slice("server:".length).toLowerCase();
      if (server.length > 0) parsed.servers.push(server);
    } else if (token.length > 1 && token.startsWith("+")) {
      parsed.required.push(token.slice(1));
      kept.push(token.slice(1));
    } else if (token.length > 1 && token.startsWith("-")) {
      parsed.excluded.push(token.slice(1));
    } else if (HAS_WORD_CHARACTER.test(token)) {
      parsed.words.push(token);
      kept.push(token);
    }
  }
  parsed.text = kept.join(" ");
  if (kept.length === 0) parsed.kind = "browse";
  return parsed;
}

function unwrapRegex(text: string): string | undefined {
  const match = REGEX_LITERAL.exec(text);
  return match ? match[1] : undefined;
}

function parseSelect(list: string): ParsedQuery {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const raw of list.split(",")) {
    const name = raw.trim();
    if (name.length === 0 || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  if (names.length === 0) {
    throw new ToolsiftError(
      "invalid_query",
      'select: needs at least one tool name, e.g. "select:create_issue,list_issues".',
    );
  }
  const parsed = empty("select", names.join(","));
  parsed.select = names;
  return parsed;
}
