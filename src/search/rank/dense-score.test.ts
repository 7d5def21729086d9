import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../catalog/index.js";
import { coverageTable } from "../query/coverage-table.js";
import { planQuery } from "../query/query-terms.js";
import { DEFAULT_RANKING } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { denseApplies, scoreDense } from "./dense-score.js";
import { rankTouched } from "./rank-touched.js";
import { accumulate, ScoreScratch } from "./score-query.js";
import { TopK } from "./top-k.js";

// few words and short texts: many documents tie, also at the k-th place
const WORDS = [
  "create",
  "issue",
  "list",
  "user",
  "send",
  "file",
  "read",
  "page",
  "files",
  "listing",
];

const toolArbitrary = fc.record({
  name: fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 })
    .chain((parts) => fc.nat(99).map((n) => `${parts.join("_")}_${n}`)),
  description: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((w) => w.join(" ")),
});

const caseArbitrary = fc.record({
  tools: fc.uniqueArray(toolArbitrary, { selector: (t) => t.name, minLength: 1, maxLength: 40 }),
  removed: fc.array(fc.nat(39), { maxLength: 8 }),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
  k: fc.integer({ min: 1, max: 6 }),
  rejectEvery: fc.integer({ min: 0, max: 4 }),
  excludeEvery: fc.integer({ min: 0, max: 5 }),
});

interface Internals {
  store: PostingStore;
  tools: (ToolDefinition | undefined)[];
}

/** Runs one scoring path on a fresh scratch; returns everything later steps may read. */
function run(
  index: ToolSearchIndex,
  words: string[],
  k: number,
  rejectEvery: number,
  excludeEvery: number,
  dense: boolean,
) {
  const { store, tools } = (index as unknown as { indexed: Internals }).indexed;
  const plan = planQuery(words, [], store, DEFAULT_RANKING);
  const coverage = coverageTable(plan, DEFAULT_RANKING.coverage);
  const scratch = new ScoreScratch();
  scratch.begin(store.nextId + 1);
  const { score, mask, excluded, epoch } = scratch;
  for (let doc = 0; doc < store.nextId; doc += 1) {
    if (excludeEvery > 0 && doc % excludeEvery === 1) excluded[doc] = epoch;
  }
  const rejects =
    rejectEvery > 0
      ? (doc: number) => {
          if (doc % rejectEvery === 0) score[doc] = -1;
          return (score[doc] as number) < 0;
        }
      : undefined;
  const top = new TopK(k, score, tools);
  const anyExcluded = excludeEvery > 0;
  const nameBonus = DEFAULT_RANKING.nameBonus;
  let best: number;
  if (dense)
    best = scoreDense(store, plan, scratch, nameBonus, coverage, anyExcluded, top, rejects);
  else {
    const touched = accumulate(store, plan, scratch, nameBonus);
    best = rankTouched(scratch, touched, coverage, anyExcluded, top, rejects);
  }
  const docs: [number, number, number][] = [];
  for (let doc = 0; doc < store.nextId; doc += 1) {
    if (!scratch.scored(doc)) continue;
    // a rejected document is marked only when checked, and the two orders check different ones
    const rejected = rejectEvery > 0 && doc % rejectEvery === 0;
    // the dense path may leave its touched bit (31) in the mask: no group uses that bit
    const bits = ((mask[doc] ?? 0) & 0x7fffffff) >>> 0;
    docs.push([doc, rejected ? -1 : (score[doc] as number), bits]);
  }
  return { best, top: top.finish([]), docs, applies: denseApplies(store, plan) };
}

describe("dense scoring", () => {
  it("gives the sparse path's scores, masks, best score and top k, ties included", () => {
    let tied = 0;
    fc.assert(
      fc.property(caseArbitrary, ({ tools, removed, words, k, rejectEvery, excludeEvery }) => {
        const index = new ToolSearchIndex();
        for (const tool of tools) index.add({ ...tool, inputSchema: { type: "object" } });
        // removed tools leave dead postings behind until the store compacts
        for (const at of removed) {
          const tool = tools[at];
          if (tool !== undefined) index.remove(tool.name);
        }
        const sparse = run(index, words, k, rejectEvery, excludeEvery, false);
        const dense = run(index, words, k, rejectEvery, excludeEvery, true);
        expect(dense.docs).toEqual(sparse.docs);
        expect(dense.best).toBe(sparse.best);
        expect(dense.top).toEqual(sparse.top);
        const scores = sparse.docs.map(([, value]) => value);
        if (new Set(scores).size < scores.length) tied += 1;
      }),
      { numRuns: 300 },
    );
    // the generated catalogs do exercise ties
    expect(tied).toBeGreaterThan(20);
  });

  it("settles ties at the k-th place by name on both paths, whatever order documents are met in", () => {
    // every tool has a twin with `alpha` and `beta` swapped: twins score the same, the `beta` twin
    // has the lower id, but `accumulate` meets the `alpha` one first (the query says alpha first)
    const mirrorWords = ["alpha", "gamma", "delta", "read", "file"];
    const twinArbitrary = fc.uniqueArray(
      fc.array(fc.constantFrom(...mirrorWords), { minLength: 1, maxLength: 5 }),
      { selector: (words) => words.join(" "), minLength: 2, maxLength: 20 },
    );
    fc.assert(
      fc.property(twinArbitrary, fc.integer({ min: 1, max: 5 }), (texts, k) => {
        const index = new ToolSearchIndex();
        const swap = (text: string) => text.replaceAll("alpha", "beta");
        texts.forEach((words, n) => {
          const text = words.join(" ");
          const name = `${words[0]}_${n}`;
          index.add({ name: `z_${swap(name)}`, description: swap(text), inputSchema: {} });
        });
        texts.forEach((words, n) => {
          const name = `${words[0]}_${n}`;
          index.add({ name: `z_${name}`, description: words.join(" "), inputSchema: {} });
        });
        const query = ["alpha", "beta", "gamma"];
        const sparse = run(index, query, k, 0, 0, false);
        const dense = run(index, query, k, 0, 0, true);
        expect(dense.top).toEqual(sparse.top);
        expect(dense.docs).toEqual(sparse.docs);
        // the top k is the first k of every scored document sorted by score, then name
        const { tools } = (index as unknown as { indexed: Internals }).indexed;
        const nameOf = (doc: number) => tools[doc]?.name ?? "";
        const expected = sparse.docs
          .filter(([, value]) => value >= 0)
          .sort((a, b) => b[1] - a[1] || (nameOf(a[0]) < nameOf(b[0]) ? -1 : 1))
          .slice(0, k)
          .map(([doc]) => doc);
        expect(sparse.top).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("applies to plans that read many postings for the id range", () => {
    const index = new ToolSearchIndex();
    for (let n = 0; n < 20; n += 1) {
      index.add({ name: `read_file_${n}`, description: "read a file", inputSchema: {} });
    }
    index.add({ name: "send_mail", description: "send a message", inputSchema: {} });
    const { store } = (index as unknown as { indexed: Internals }).indexed;
    expect(denseApplies(store, planQuery(["read"], [], store, DEFAULT_RANKING))).toBe(true);
    expect(denseApplies(store, planQuery(["mail"], [], store, DEFAULT_RANKING))).toBe(false);
  });
});
