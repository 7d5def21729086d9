/** Regex mode: every tool scored by where the pattern matches, best first (`regex-search.ts` compiles and scores). */

import type { RE2JS } from "re2js";
import type { ToolDefinition } from "../../catalog/index.js";
import type { NamedTools } from "../store/named-tools.js";
import type { SearchHit } from "../types.js";
import { MAX_REGEX_SCAN, regexScore } from "./regex-search.js";

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
