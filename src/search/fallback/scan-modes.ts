/**
 * The query modes that scan tools by name instead of reading postings: browse (an empty query)
 * and the stop-word fallback (regex mode, which scans too, is in regex/). Each visits tools in
 * name order, so results are stable.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { STOP_WORDS, splitIdentifier, tokenize } from "../../text/index.js";
import type { ParsedQuery } from "../query/parse-query.js";
import { extractFieldTexts } from "../store/fields.js";
import type { NamedTools } from "../store/named-tools.js";
import type { SearchHit } from "../types.js";

/** The first `limit` tools by name that pass and hold none of the query's `-excluded` words. */
export function browseHits(
  parsed: ParsedQuery,
  tools: NamedTools,
  limit: number,
  passes: (tool: ToolDefinition) => boolean,
): SearchHit[] {
  const excluded = parsed.excluded.flatMap((word) => tokenize(word));
  const hits: SearchHit[] = [];
  for (const name of tools.names()) {
    if (hits.length >= limit) break;
    const tool = tools.get(name);
    if (!passes(tool)) continue;
    if (excluded.length > 0) {
      const words = new Set(tokenize(extractFieldTexts(tool).join(" ")));
      if (excluded.some((token) => words.has(token))) continue;
    }
    hits.push({ name, score: 0, tool });
  }
  return hits;
}

/**
 * When every query word is a stop word ("about", "it", "the"), the index holds none of them;
 * rather than a dead end, return the tools whose name contains one of those words, the tools
 * with more of them (then shorter names) first. A linear scan, taken only in this rare case.
 */
export function stopWordNameHits(
  parsed: ParsedQuery,
  tools: NamedTools,
  limit: number,
  passes: (tool: ToolDefinition) => boolean,
): SearchHit[] {
  // nearly every query has a word that is not a stop word: answer that without building a set
  const words = new Set<string>();
  for (const word of parsed.words) {
    for (const token of splitIdentifier(word)) {
      if (!STOP_WORDS.has(token)) return [];
      words.add(token);
    }
  }
  if (words.size === 0) return [];
  const scored: { tool: ToolDefinition; score: number }[] = [];
  for (const name of tools.names()) {
    const tool = tools.get(name);
    if (!passes(tool)) continue;
    const parts = splitIdentifier(tool.name);
    const matched = parts.filter((part) => words.has(part)).length;
    if (matched > 0) scored.push({ tool, score: matched / parts.length });
  }
  scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
  return scored.slice(0, limit).map(({ tool, score }) => ({ name: tool.name, score, tool }));
}
