/** The fused ranking: lexical hits and tools similar in meaning, on one scale. */
import type { ToolDefinition } from "../../catalog/index.js";
import { DEFAULT_RANKING } from "../ranking-config.js";
import type { SearchHit, SearchOptions, SearchResult } from "../types.js";
import type { Similarities } from "./similarities.js";
import type { VectorMatrix } from "./tool-vectors.js";

// similarities are compared as z-scores over the candidates, so any embedder's cosine range fits;
// a z of 4 is about the best a tool stands out, so z/4 maps the useful range onto 0–1
const Z_SPAN = 4;
// a tool no query word matched must stand out clearly to be offered on similarity alone; among n
// candidates no z-score can pass sqrt(n - 1), so small catalogs get a proportionate bar
const SEMANTIC_ONLY_MIN_Z = 2.5;
const semanticOnlyBar = (candidates: number) =>
  Math.min(SEMANTIC_ONLY_MIN_Z, 0.5 * Math.sqrt(Math.max(0, candidates - 1)));

/** A hit while fusing: a lexical hit (`hit`) or a tool added on similarity alone (`row`). */
interface Candidate {
  name: string;
  score: number;
  z: number;
  hit: SearchHit | undefined;
  row: number;
}

/**
 * `(1 − w) × lexical / best lexical + w × clamp(z / 4, 0, 1)` for every lexical hit, plus the
 * tools no query word matched whose z-score clears the bar (when the query allows additions),
 * then the tail cut and the limit (docs/semantic-search.md).
 */
export function fuseHits(
  pool: SearchResult,
  matrix: VectorMatrix,
  scores: Similarities,
  options: SearchOptions,
  weight: number,
  keep: (tool: ToolDefinition) => boolean,
): SearchResult {
  const best = pool.hits[0]?.score ?? 0;
  const lexicalShare = 1 - weight;
  const part = (z: number) => weight * Math.min(1, Math.max(0, z / Z_SPAN));
  // plain records until the order is known: only the hits shown are built as SearchHits
  const fused: Candidate[] = [];
  const names = new Set<string>();
  for (const hit of pool.hits) {
    const row = matrix.rowOf.get(hit.name);
    const z = row === undefined ? 0 : scores.zOf(row);
    const lexicalPart = best > 0 ? (lexicalShare * hit.score) / best : 0;
    fused.push({ name: hit.name, score: lexicalPart + part(z), z, hit, row: -1 });
    names.add(hit.name);
  }
  const bar = scores.allowAdditions
    ? additionBar(matrix.tools.length, fused, options, weight)
    : undefined;
  if (bar !== undefined) {
    for (const row of scores.rowsAbove(bar)) {
      const tool = matrix.tools[row] as ToolDefinition;
      if (names.has(tool.name) || !keep(tool)) continue;
      const z = scores.zOf(row);
      fused.push({ name: tool.name, score: part(z), z, hit: undefined, row });
      names.add(tool.name);
    }
  }
  fused.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const top = fused[0]?.score ?? 0;
  const cut = options.cut ?? true;
  const limit = options.limit ?? 5;
  const hits = fused
    .filter((entry) => !cut || entry.score >= top * DEFAULT_RANKING.tailCut)
    .slice(0, limit)
    .map((entry) => {
      const semantic = { zScore: entry.z, score: part(entry.z) };
      if (entry.hit) return { ...entry.hit, score: entry.score, semantic };
      // no query word matched it: similar in meaning only, which is never a strong match
      return {
        name: entry.name,
        score: entry.score,
        tool: matrix.tools[entry.row] as ToolDefinition,
        semantic,
        confidence: { level: "weak", coverage: 0, nameMatch: false, missing: [] },
      } satisfies SearchHit;
    });
  if (hits.length === 0) return { ...pool, hits };
  const { suggestions: _suggestions, servers: _servers, ...rest } = pool;
  const confidence = hits[0]?.confidence?.level ?? pool.confidence;
  return { ...rest, hits, ...(confidence ? { confidence } : {}) };
}

/**
 * The z-score a tool no query word matched must reach to have any chance of being shown, or
 * undefined when none can be. Besides the catalog's bar, it must tie the limit-th lexical hit
 * and survive the tail cut of the best one. Under the default cut a lexical hit scores at least
 * 1 − w and an addition at most w, so with any lexical hit the scan over every tool is skipped.
 */
function additionBar(
  candidates: number,
  pool: readonly Candidate[],
  options: SearchOptions,
  weight: number,
): number | undefined {
  const scores = pool.map((hit) => hit.score).sort((a, b) => b - a);
  const limit = options.limit ?? 5;
  let needed = 0;
  if (Number.isInteger(limit) && limit >= 1 && scores.length >= limit)
    needed = scores[limit - 1] as number;
  if ((options.cut ?? true) && scores.length > 0)
    needed = Math.max(needed, (scores[0] as number) * DEFAULT_RANKING.tailCut);
  if (needed > weight) return undefined;
  const bar = Math.max(Number.MIN_VALUE, semanticOnlyBar(candidates));
  // part(z) = w × z / Z_SPAN; the slack keeps a rounding error from dropping a tie
  return needed > 0 ? Math.max(bar, (needed / weight) * Z_SPAN * (1 - 1e-9)) : bar;
}
