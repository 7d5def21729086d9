/**
 * The query modes that scan tools by name instead of reading postings: regex, browse (an empty
 * query), and the stop-word fallback. Each visits tools in name order, so results are stable.
 */

import type { RE2JS } from "re2js";
import type { ToolDefinition } from "../../catalog/index.js";
import { STOP_WORDS, splitIdentifier, tokenize } from "../../text/index.js";
import type { ParsedQuery } from "../query/parse-query.js";
import { extractFieldTexts } from "../store/fields.js";
import type { SearchHit } from "../types.js";
import { MAX_REGEX_SCAN, regexScore } from "./regex-search.js";

/** The indexed tools in name order: their sorted names (built on demand) and a lookup by name. */
export interface NamedTools {
  names(): readonly string[];
  get(name: string): ToolDefinition;
}

interface Candidate {
  score: number;
  name: string;
}

function byScoreThenName(a: Candidate, b: Candidate): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The best `k` candidates in order (score desc, then name), by partial selection. */
function selectTop(candidates: Candidate[], k: number): Candidate[] {
  if (candidates.length <= k * 4) return candidates.sort(byScoreThenName).slice(0, k);
  const top: Candidate[] = [];
  for (const candidate of candidates) {
    if (top.length === k && byScoreThenName(candidate, top[k - 1] as Candidate) >= 0) continue;
    let index = top.length < k ? top.length : k - 1;
    top[index] = candidate;
    while (index > 0 && byScoreThenName(top[index] as Candidate, top[index - 1] as Candidate) < 0) {
      [top[index], top[index - 1]] = [top[index - 1] as Candidate, top[index] as Candidate];
      index -= 1;
    }
  }
  return top;
}

function matches(regex: RE2JS, text: string): boolean {
  return (
    text.length > 0 &&
    regex.test(text.length > MAX_REGEX_SCAN ? text.slice(0, MAX_REGEX_SCAN) : text)
  );
}

/**
 * The regex score of the searchable fields `regexScore` does not read: search hint, keywords,
 * tags and category (1 together, like the description) and parameter names (0.5), so a pattern
 * finds what keyword search finds through those fields.
 */
export function regexExtraScore(regex: RE2JS, tool: ToolDefinition): number {
  let score = 0;
  const hints = [tool.searchHint, tool.category, ...(tool.keywords ?? []), ...(tool.tags ?? [])];
  if (hints.some((hint) => typeof hint === "string" && matches(regex, hint))) score += 1;
  const properties = tool.inputSchema?.properties;
  if (typeof properties === "object" && properties !== null) {
    if (matches(regex, Object.keys(properties).join(" "))) score += 0.5;
  }
  return score;
}

/** The `limit` tools the compiled pattern scores best (see `regexScore`, `regexExtraScore`),
 * best first. */
export function regexHits(
  regex: RE2JS,
  tools: NamedTools,
  limit: number,
  filter: ((tool: ToolDefinition) => boolean) | undefined,
): SearchHit[] {
  const candidates: Candidate[] = [];
  for (const name of tools.names()) {
    const tool = tools.get(name);
    if (filter && !filter(tool)) continue;
    const score = regexScore(regex, tool) + regexExtraScore(regex, tool);
    if (score > 0) candidates.push({ score, name });
  }
  return selectTop(candidates, limit).map(({ name, score }) => ({
    name,
    score,
    tool: tools.get(name),
  }));
}

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
