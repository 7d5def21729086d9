/**
 * Why a learned tool is not first: for each query of a set whose learned tool (the one its usage
 * named) is not the first hit after learning, one line with the tool's rank before and after,
 * the first hit, the lexical confidence of both, the scores and what the learned step gave, and
 * the reason it fell short (see `reasonOf`). Used by `eval-learning.ts --misses`.
 */

import type { LearnedWord } from "../src/learning/index.js";
import type { SearchHit, ToolSearchIndex } from "../src/search/index.js";
import { UNDER_STRONG } from "../src/search/rank/learned-bonus.js";
import { queryKey } from "../src/text/index.js";

interface Query {
  id: string;
  query: string;
  relevant: string[];
}

const fmt = (value: number) => value.toFixed(2);

/** The lines for every miss of `set`, headed by `label`; `learned` is what the index holds now. */
export function printMisses<Q extends Query>(
  index: ToolSearchIndex,
  set: readonly Q[],
  learned: ReadonlyMap<string, LearnedWord[]>,
  learnedTool: (query: Q) => string | undefined,
  label: string,
): string[] {
  const lines: string[] = [];
  const holders = keyHolders(learned);
  for (const query of set) {
    const tool = learnedTool(query);
    if (tool === undefined) continue;
    const after = index.rank(query.query, 10);
    if (after[0] === tool) continue;
    index.setLearned(new Map());
    const before = index.rank(query.query, 10);
    const plain = index.search(query.query, { limit: 25, cut: false, explain: true }).hits;
    index.setLearned(learned);
    const taught = index.search(query.query, { limit: 25, cut: false, explain: true }).hits;
    const line = describe(query, tool, { before, after, plain, taught }, learned, holders);
    lines.push(`${label} ${line}`);
  }
  return lines;
}

/** How many tools learned each query key. */
function keyHolders(learned: ReadonlyMap<string, LearnedWord[]>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const words of learned.values())
    for (const { word } of words)
      if (word.includes(" ")) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

interface Runs {
  before: string[];
  after: string[];
  plain: SearchHit[];
  taught: SearchHit[];
}

function describe(
  query: Query,
  tool: string,
  runs: Runs,
  learned: ReadonlyMap<string, LearnedWord[]>,
  holders: ReadonlyMap<string, number>,
): string {
  const rankOf = (list: readonly string[]) => {
    const at = list.indexOf(tool);
    return at < 0 ? ">10" : String(at + 1);
  };
  const lexFirst = runs.plain[0];
  const lexTool = runs.plain.find((hit) => hit.name === tool);
  const first = runs.taught[0];
  const toolHit = runs.taught.find((hit) => hit.name === tool);
  const key = queryKey(query.query);
  const keyWord = (learned.get(tool) ?? []).find((word) => word.word === key);
  const relevantFirst = first !== undefined && query.relevant.includes(first.name);
  const facts = {
    best: lexFirst?.score ?? 0,
    bestStrong: lexFirst?.confidence?.level === "strong",
    bestComplete: lexFirst?.confidence?.coverage === 1 && lexFirst.confidence.nameMatch,
    lexical: lexTool?.score ?? 0,
    level: lexTool?.confidence?.level ?? "unscored",
    final: toolHit?.score ?? 0,
    gained: toolHit?.scoreParts?.learned ?? 0,
    firstScore: first?.score ?? 0,
    firstGained: first?.scoreParts?.learned ?? 0,
    key,
    keyWeight: keyWord?.weight ?? 0,
    keyHolders: holders.get(key) ?? 0,
  };
  return [
    `${query.id} "${query.query}"`,
    `  learned ${tool}: rank ${rankOf(runs.before)} -> ${rankOf(runs.after)}; lexical ${facts.level} ${fmt(facts.lexical)} + learned ${fmt(facts.gained)} = ${fmt(facts.final)}`,
    `  first ${first?.name} ${relevantFirst ? "(relevant: no R@1 loss)" : "(NOT relevant)"} ${fmt(facts.firstScore)} (learned ${fmt(facts.firstGained)}); lexical first ${lexFirst?.name} ${lexFirst?.confidence?.level} ${fmt(facts.best)}`,
    `  key "${key}" ${keyWord ? `weight ${fmt(facts.keyWeight)}, ${facts.keyHolders} tool(s)` : "not learned"}; why: ${reasonOf(facts)}`,
  ].join("\n");
}

interface Facts {
  best: number;
  bestStrong: boolean;
  bestComplete: boolean;
  lexical: number;
  level: string;
  final: number;
  gained: number;
  firstScore: number;
  firstGained: number;
  key: string;
  keyWeight: number;
  keyHolders: number;
}

/** The first rule, in the learned step's order, that kept the tool from first place. */
function reasonOf(facts: Facts): string {
  const gap = facts.firstScore - facts.lexical;
  if (facts.key === "") return "no key (a query of one word or more than 12)";
  if (facts.keyWeight === 0) return "key not learned (dropped by the per-tool word cap?)";
  if (facts.bestComplete)
    return "the lexical first hit holds every word, one in its name: a recurring key never passes it";
  const capped = facts.bestStrong && facts.level === "none";
  if (capped && facts.final >= facts.best * UNDER_STRONG - 1e-6)
    return `capped: a none tool stays under ${UNDER_STRONG} of a strong first hit`;
  const whole = facts.best * facts.keyWeight;
  if (facts.keyHolders > 1 && whole > gap)
    return `rarity: ${facts.keyHolders} tools learned the key (${fmt(facts.gained)} of ${fmt(whole)})`;
  if (facts.firstGained > 0 && facts.final > facts.firstScore - facts.firstGained)
    return `the first hit gained learned words too (${fmt(facts.firstGained)})`;
  return `weight ${fmt(facts.keyWeight)} too weak: key gives ${fmt(facts.gained)}, gap ${fmt(gap)} (${fmt(gap / Math.max(facts.best, 1e-9))} of best)`;
}
