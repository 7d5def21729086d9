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
import type { PostingStore, SavedStore } from "../store/posting-store.js";
import type { SnapshotReader, SnapshotWriter } from "../store/snapshot-format.js";
import { forEachTermRow, readTermRows, saveTermRows } from "../store/term-rows.js";
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

/** Snapshot section: per live tool, ids ascending, `[id, word count, word id…]`. */
const WORDS_SECTION = "nameWords";
const NO_ROWS = new Int32Array(0);

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
 * The term ids of each indexed tool's name words that can say what it does: the words of the
 * name after its namespace, each once, but not stop words (a query's are dropped, so a name's
 * cannot be asked for: `get-my-manager`), digits or single letters (versions and fragments:
 * `…RecordsV1`). A built index splits a tool's name when the step first reads it; a snapshot
 * carries every live tool's words (`save`, `restore`), so a restored index splits no name.
 */
export class NameWords implements ToolWatcher {
  /** A restore hands over the saved words (`restore`); this part keeps nothing per added tool. */
  readonly restoresFromSnapshot = true;
  /** Per tool id: its words, once split or read from the snapshot. */
  private readonly words: (Int32Array | undefined)[] = [];
  /** The snapshot's rows, and per tool id where its words start in them (0: not saved). */
  private rows: Int32Array = NO_ROWS;
  private savedAt: Int32Array = NO_ROWS;

  constructor(
    private readonly store: PostingStore,
    private readonly tools: readonly (ToolDefinition | undefined)[],
  ) {}

  /** The name word ids of document `doc` (-1 for a word the index does not hold). */
  of(doc: number): Int32Array {
    // filled up to `doc` so the array stays dense: the step reads ids in no order
    while (this.words.length <= doc) this.words.push(undefined);
    let ids = this.words[doc];
    if (ids !== undefined) return ids;
    const start = this.savedAt[doc] ?? 0;
    if (start > 0) {
      ids = this.rows.subarray(start, start + (this.rows[start - 1] as number));
    } else {
      const tool = this.tools[doc];
      ids = tool === undefined ? NO_ROWS : this.split(tool.name);
    }
    this.words[doc] = ids;
    return ids;
  }

  private split(name: string): Int32Array {
    const words = new Set<string>();
    for (const word of splitIdentifier(nameSuffix(name))) {
      if (!isStopWord(word) && word.length > 1 && !DIGITS.test(word)) words.add(word);
    }
    return Int32Array.from(words, (word) => this.store.termId(word));
  }

  removed(id: number): void {
    this.words[id] = undefined;
    if (id < this.savedAt.length) this.savedAt[id] = 0;
  }

  /** Writes the words of every live tool (`ids`, ascending), splitting the names not yet split. */
  save(writer: SnapshotWriter, ids: readonly number[]): void {
    saveTermRows(writer, WORDS_SECTION, ids, (id) => this.of(id));
  }

  /**
   * Takes the rows of a snapshot restored into the empty index (checked by `readNameWords`):
   * only where each tool's words start; a tool's view is made when the step first reads it.
   */
  restore(rows: Int32Array, nextId: number): void {
    const savedAt = new Int32Array(nextId);
    // a row's words start after its id and count, so 0 is free to mean "not saved"
    forEachTermRow(rows, (id, start) => {
      savedAt[id] = start;
    });
    this.rows = rows;
    this.savedAt = savedAt;
  }
}

/**
 * Reads and checks name fit's rows for a snapshot's restored `store`: live tools in id order,
 * each naming terms of the vocabulary (or -1, a word it does not hold). Any problem is a
 * `SnapshotProblem` (the index is then built).
 */
export function readNameWords(reader: SnapshotReader, store: SavedStore): Int32Array {
  const termCount = store.nameFrequency.length;
  return readTermRows(reader, WORDS_SECTION, store, {
    what: "name words",
    holds: (term) => term >= -1 && term < termCount,
    otherwise: "terms past the vocabulary",
  });
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
    const words = this.names.words.of(doc);
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
