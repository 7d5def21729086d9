import type { ToolDefinition, ToolResult } from "../catalog/index.js";
import { isToolsiftError } from "../errors.js";
import type { SearchHit } from "../search/index.js";
import { compactSignature } from "./compact-signature.js";
import { capText, firstSentence, safeName, sanitizeText } from "./sanitize-text.js";
import type { CountTokens, DisclosureStrategy, MetaToolNames, SearchFunction } from "./types.js";

/** What one run of the search meta tool needs. */
export interface SearchRequest {
  queries: readonly string[];
  limit: number;
  search: SearchFunction;
  /** The searchable tool by name (visible and deferrable), or undefined. */
  candidate: (name: string) => ToolDefinition | undefined;
  strategy: DisclosureStrategy;
  names: MetaToolNames;
  maxTokens: number;
  count: CountTokens;
  /** Reveal (and list) hits that match almost nothing of the query (`confidence: "none"`). */
  includeWeak?: boolean;
}

interface QueryBlock {
  query: string;
  tools: ToolDefinition[];
  note: string;
  /** The first hit's confidence is not `strong`: the hits are the closest, not answers. */
  weak?: boolean;
  /** Per tool: the companions it needs ("needs project_id: get it with list_projects"). */
  companions?: Map<string, { note: string; names: string[] }>;
}

type Detail = (tool: ToolDefinition) => string;

// from richest to leanest; the first rendering within the budget is sent
const DETAILS: Detail[] = [
  (tool) => `${compactSignature(tool)} — ${firstSentence(tool.description, 100)}`,
  (tool) =>
    `${compactSignature(tool, { maxParams: 6, maxChars: 160 })} — ${firstSentence(tool.description, 50)}`,
  (tool) => compactSignature(tool, { maxParams: 3, maxChars: 100 }),
  (tool) => safeName(tool.name),
];

function runQuery(query: string, request: SearchRequest): QueryBlock {
  try {
    const result = request.search(query, {
      limit: request.limit,
      filter: (tool) => request.candidate(tool.name) !== undefined,
    });
    // the engine was given the filter; re-check so a faulty engine can never leak a tool
    const tools = result.hits
      .map((hit: SearchHit) => request.candidate(hit.name))
      .filter((tool): tool is ToolDefinition => tool !== undefined)
      .slice(0, request.limit);
    if (tools.length > 0 && result.confidence === "none" && request.includeWeak !== true) {
      return { query, tools: [], note: withheldNote(tools) };
    }
    if (tools.length > 0) {
      const weak = result.confidence !== undefined && result.confidence !== "strong";
      return { query, tools, note: "", weak, companions: companionNotes(result.hits, request) };
    }
    const suggestions = (result.suggestions ?? [])
      .filter((name) => request.candidate(name))
      .slice(0, 5);
    const servers = (result.servers ?? [])
      .slice(0, 12)
      .map((entry) => `${capText(safeName(entry.server), 40)} (${entry.tools})`);
    const parts = ["no match."];
    if (suggestions.length > 0)
      parts.push(`Closest names: ${suggestions.map(safeName).join(", ")}.`);
    if (servers.length > 0) parts.push(`Servers: ${servers.join(", ")}.`);
    parts.push("Try other keywords.");
    return { query, tools: [], note: parts.join(" ") };
  } catch (error) {
    const why = isToolsiftError(error) ? error.message : "the search failed";
    return { query, tools: [], note: `query error: ${capText(sanitizeText(why), 200)}` };
  }
}

/** The answer for hits too weak to reveal: their names, and how to see them anyway. */
function withheldNote(tools: readonly ToolDefinition[]): string {
  const names = tools.slice(0, 3).map((tool) => safeName(tool.name));
  return `no strong match; closest: ${names.join(", ")} (not revealed: they share little with the query). Try other keywords, or search again with include_weak: true to see them.`;
}

/** The companions of each hit that the model may use, as one note per hit. */
function companionNotes(
  hits: readonly SearchHit[],
  request: SearchRequest,
): Map<string, { note: string; names: string[] }> {
  const out = new Map<string, { note: string; names: string[] }>();
  for (const hit of hits) {
    const usable = (hit.companions ?? []).filter((c) => request.candidate(c.name) !== undefined);
    if (usable.length === 0) continue;
    const note = usable.map((c) => `${c.reason}: get it with ${safeName(c.name)}`).join("; ");
    out.set(hit.name, { note: capText(sanitizeText(note), 160), names: usable.map((c) => c.name) });
  }
  return out;
}

function render(
  blocks: readonly QueryBlock[],
  detail: Detail,
  footer: string,
  keep: number,
): string {
  const lines: string[] = [];
  const shown = new Set<string>();
  let omitted = 0;
  for (const block of blocks) {
    const label = JSON.stringify(capText(sanitizeText(block.query), 80));
    if (block.tools.length === 0) {
      lines.push(`${label}: ${block.note}`);
      continue;
    }
    lines.push(block.weak ? `${label}: no strong match; closest:` : `${label}:`);
    block.tools.forEach((tool, index) => {
      if (index >= keep) {
        omitted += 1;
        return;
      }
      const companion = block.companions?.get(tool.name);
      const extra = companion === undefined ? "" : ` (${companion.note})`;
      lines.push(
        shown.has(tool.name) ? `- ${safeName(tool.name)} (see above)` : `- ${detail(tool)}${extra}`,
      );
      shown.add(tool.name);
    });
  }
  if (omitted > 0) lines.push(`(${omitted} more matches not shown; use narrower queries)`);
  lines.push(footer);
  return lines.join("\n");
}

/**
 * Runs the search meta tool: several queries in one call, compact signatures, a token budget.
 *
 * The response degrades (shorter summaries, fewer parameters, names only, fewer hits) until it
 * fits `maxTokens`. Returns the result and the found tool names in first-seen order.
 */
export function searchResponse(request: SearchRequest): { result: ToolResult; found: string[] } {
  const blocks = request.queries.map((query) => runQuery(query, request));
  const widest = Math.max(0, ...blocks.map((block) => block.tools.length));
  const footer =
    widest === 0
      ? "Nothing found; try broader or different keywords."
      : request.strategy === "reveal"
        ? "These tools are callable directly from your next step (* marks required parameters)."
        : `Run one with ${request.names.call} {name, arguments} (* marks required parameters); ${request.names.describe} shows a full schema.`;
  let text = render(blocks, DETAILS[3] as Detail, footer, 0);
  let keep = widest;
  search: for (; keep >= 1; keep -= 1) {
    for (const detail of DETAILS) {
      text = render(blocks, detail, footer, keep);
      if (request.count(text) <= request.maxTokens) break search;
    }
  }
  // only tools the model was shown count as found (and, under reveal, become loaded)
  const found: string[] = [];
  for (const block of blocks) {
    for (const tool of block.tools.slice(0, Math.max(keep, 1))) {
      if (!found.includes(tool.name)) found.push(tool.name);
      // a hit's companions are named in its line, so they are revealed alongside it
      for (const name of block.companions?.get(tool.name)?.names ?? []) {
        if (!found.includes(name)) found.push(name);
      }
    }
  }
  const structuredContent: { [key: string]: unknown } = {
    matches: blocks.map((block) => ({
      query: block.query,
      tools: block.tools.slice(0, Math.max(keep, 1)).map((tool) => tool.name),
    })),
  };
  if (request.strategy === "reveal") structuredContent.revealed = found;
  return { result: { content: [{ type: "text", text }], structuredContent }, found };
}
