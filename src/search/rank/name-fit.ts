/**
 * The name-fit step of a short keyword query. A tool's name is its own summary of what it does,
 * so for a query of a few words, the name words the query did not ask for count against it, each
 * by how telling it is among names: for "dns records", `DNS_getDNSRecordsV1` (unasked: the common
 * `get`) comes before `DNS_validateDNSRecordsV1` (the rarer `validate`), and for "mongodb find
 * documents" a tool named `find` before `insert-many`. A long request describes the task rather
 * than naming a tool, and is left alone.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { nameSuffix } from "../../internal/name-suffix.js";
import { isStopWord, splitIdentifier } from "../../text/index.js";
import type { QueryPlan } from "../query/query-terms.js";
import type { ToolWatcher } from "../store/indexed-tools.js";
import type { PostingStore } from "../store/posting-store.js";
import { nameIdf } from "./posting-score.js";
import type { ScoreScratch } from "./score-query.js";
import type { TopK } from "./top-k.js";

const DIGITS = /^\d+$/;

/**
 * Hits the step re-weighs: a query asking for fewer is scored into this many first, so a search for
 * one hit and for ten agree on the first. 20 gained nothing at rank 1 or 5 over 10 and cost a 10k
 * search about a fifth more time (pruning by the k-th score works less).
 */
export const NAME_FIT_POOL = 10;

/**
 * The longest query (distinct content words) the step re-weighs. A request of five content words
 * still mostly names a tool ("list open pull requests on a repo"); past that it describes a task.
 * Measured in session 11 against four (confidence's short-query bound, its first value): real
 * catalogs R@1 0.556 → 0.568, S@1 0.790 → 0.801, R@5 0.846 → 0.849, MRR 0.839 → 0.848, up on
 * both halves; bench macro R@1 0.413 → 0.414 (up on both halves), R@5 and MRR within ±0.0002. Three cost
 * the real set on both halves; six cost it too, and bench half a's R@5 (docs/ranking.md).
 */
export const NAME_FIT_MAX_WORDS = 5;

/**
 * The term ids of each indexed tool's name words that can say what it does: not stop words (a
 * query's are dropped, so a name's cannot be asked for: `get-my-manager`), digits or single
 * letters (versions and fragments: `…RecordsV1`). Kept per document until the tool is removed.
 */
export class NameWords implements ToolWatcher {
  private readonly ids = new Map<number, Int32Array>();

  constructor(private readonly store: PostingStore) {}

  /** The name word ids of document `doc`, named `name` (-1 for a word the index does not hold). */
  of(doc: number, name: string): Int32Array {
    let ids = this.ids.get(doc);
    if (ids === undefined) {
      const words = new Set<string>();
      for (const word of splitIdentifier(nameSuffix(name))) {
        if (!isStopWord(word) && word.length > 1 && !DIGITS.test(word)) words.add(word);
      }
      ids = Int32Array.from(words, (word) => this.store.termId(word));
      this.ids.set(doc, ids);
    }
    return ids;
  }

  removed(id: number): void {
    this.ids.delete(id);
  }
}

/**
 * The share of a name's information (the sum of its words' idf among names) held by words the
 * query did not ask for: ids not in `asked` (the query's words and their inflections). 0 when the
 * query asked for every word of the name.
 */
export function unaskedShare(
  store: PostingStore,
  words: Int32Array,
  asked: readonly number[],
): number {
  let total = 0;
  let unasked = 0;
  for (let index = 0; index < words.length; index += 1) {
    const id = words[index] as number;
    // a word the index never saw (a tool added since) weighs as the rarest
    const weight = nameIdf(store, id);
    total += weight;
    if (!asked.includes(id)) unasked += weight;
  }
  return total > 0 ? unasked / total : 0;
}

/** The multiplier of a document whose name has unasked share `share`, at step strength `strength`. */
export function nameFitFactor(share: number, strength: number): number {
  return 1 - strength * share;
}

/** The tools' names as the step reads them. */
export interface NamedTools {
  words: NameWords;
  tools: readonly (ToolDefinition | undefined)[];
}

/**
 * The name fit of one query: multiplies a scored document by its factor once, and keeps the
 * factors by document (for explanations).
 */
export class NameFit {
  readonly factors = new Map<number, number>();
  /** The ids of the query's words and their inflections: a synonym or prefix neighbour is the
   * engine's guess, not a word the query asked for. */
  private readonly asked: number[] = [];

  constructor(
    private readonly scratch: ScoreScratch,
    private readonly store: PostingStore,
    private readonly names: NamedTools,
    plan: QueryPlan,
    private readonly strength: number,
  ) {
    for (const term of plan.terms) if (!term.expansion) this.asked.push(term.id);
  }

  /** Multiplies `doc`'s score by its factor, unless it was already or is not a scored match. */
  fit(doc: number): void {
    const { score } = this.scratch;
    const tool = this.names.tools[doc];
    const value = score[doc] as number;
    if (tool === undefined || value <= 0 || !this.scratch.scored(doc) || this.factors.has(doc)) {
      return;
    }
    const words = this.names.words.of(doc, tool.name);
    const factor = nameFitFactor(unaskedShare(this.store, words, this.asked), this.strength);
    score[doc] = value * factor;
    this.factors.set(doc, factor);
  }

  /** Fits every document of `top` and re-ranks them in it; returns the new best score. */
  fitTop(top: TopK): number {
    const docs = top.finish([]);
    let best = 0;
    top.clear();
    for (const doc of docs) {
      this.fit(doc);
      best = Math.max(best, this.scratch.score[doc] as number);
      top.offer(doc);
    }
    return best;
  }
}
