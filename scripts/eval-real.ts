/**
 * Retrieval on the 20 real MCP servers in ../shared/catalogs with the hand-judged queries of
 * test/relevance/real-catalogs.jsonl: toolsift vs plain BM25, per hashed half and per query kind,
 * plus how the confidence signal sorts first hits (correct, wrong, unserved).
 * Usage: npx tsx scripts/eval-real.ts [--ranking '{"k1":1.5}'] [--misses]
 */

import { BaselineBM25 } from "../src/search/evaluate/baseline-bm25.js";
import {
  type Evaluation,
  evaluate,
  type RankingConfig,
  ToolSearchIndex,
} from "../src/search/index.js";
import { loadRealSet, type RealQuery } from "./eval-sets.js";
import { half } from "./query-half.js";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const { tools, queries } = await loadRealSet();
const rankingText = argument("ranking");
const ranking = rankingText ? (JSON.parse(rankingText) as Partial<RankingConfig>) : undefined;
const index = new ToolSearchIndex(ranking ? { ranking } : undefined);
index.addAll(tools);
const ours = { rank: (query: string, k: number) => index.rank(query, k) };
const base = new BaselineBM25(tools);

const fmt = (value: number) => value.toFixed(3);
const firstHit = (e: Evaluation) =>
  (e.perQuery ?? []).filter((q) => q.reciprocalRank === 1).length / Math.max(1, e.count);
const row = (label: string, set: RealQuery[]) => {
  const a = evaluate(ours, set, { perQuery: true });
  const b = evaluate(base, set, { perQuery: true });
  // S@1: the share of queries whose first hit is relevant (R@1 divides by every equivalent tool)
  const cells = (e: Evaluation) =>
    `${fmt(e.recallAt[1])} ${fmt(firstHit(e))} ${fmt(e.recallAt[5])} ${fmt(e.recallAt[10])} ${fmt(e.mrr)}`;
  console.log(`${label.padEnd(14)} ${String(a.count).padStart(4)}  ${cells(a)} | ${cells(b)}`);
};
const served = queries.filter((q) => q.kind !== "unserved");
console.log(
  `${"set".padEnd(14)} ${"n".padStart(4)}  ours R@1  S@1   R@5   R@10  MRR   | bm25 R@1  S@1   R@5   R@10  MRR`,
);
row("all", served);
row(
  "half a",
  served.filter((q) => half(q.id) === "a"),
);
row(
  "half b",
  served.filter((q) => half(q.id) === "b"),
);
row(
  "keyword",
  served.filter((q) => q.kind === "keyword"),
);
row(
  "request",
  served.filter((q) => q.kind === "request"),
);

// how the first hit's confidence sorts the queries (search as the model sees it, with the cut)
const counts = new Map<string, number>();
for (const query of queries) {
  const first = index.search(query.query, { limit: 5 }).hits[0];
  const outcome =
    query.kind === "unserved"
      ? "unserved"
      : first !== undefined && query.relevant.includes(first.name)
        ? "correct"
        : "wrong";
  const level = first?.confidence?.level ?? "no hit";
  counts.set(`${outcome}\u0000${level}`, (counts.get(`${outcome}\u0000${level}`) ?? 0) + 1);
}
console.log("\nfirst hit's confidence   strong  weak  none  no hit");
for (const outcome of ["correct", "wrong", "unserved"]) {
  const cells = ["strong", "weak", "none", "no hit"].map((level) =>
    String(counts.get(`${outcome}\u0000${level}`) ?? 0).padStart(level.length + 2),
  );
  console.log(`${outcome.padEnd(22)} ${cells.join("")}`);
}

if (process.argv.includes("--misses")) {
  for (const query of served) {
    const ranked = index.rank(query.query, 5);
    if (query.relevant.includes(ranked[0] ?? "")) continue;
    console.log(
      `${query.id} ${query.query}\n   got ${ranked.join(", ")}\n   want ${query.relevant.join(", ")}`,
    );
  }
}
