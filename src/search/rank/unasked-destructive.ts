/**
 * Destructive tools the query did not ask for rank lower. A tool marked destructive
 * (`annotations.destructiveHint: true`) usually shares the words of its object with safer
 * siblings (`VPS_deleteSnapshotV1`, `VPS_getSnapshotV1`, `VPS_createSnapshotV1`) and often has the
 * longest description about it, so a query naming only the object ("vps snapshot") used to get
 * the delete tool first. The catalog's own annotations say which name words carry the
 * destructive act: a word found mostly (more than half) in the names of destructive tools. A
 * destructive tool whose name holds such a word, none of which the query asks for (the word, an
 * inflection or a synonym of it among the query's terms), has its lexical score scaled down.
 *
 * Words are vocabulary terms, so what a query reads is a few array slots: per destructive tool
 * its name's terms, per term the destructive tools holding it, and the store's `nameFrequency`
 * (all tools holding it in their names). Only destructive tools are counted, and a snapshot
 * carries their rows (`save`, `restore`), so a restored index reads no tool's annotations and
 * splits no name for this step: the CLI's lazily parsed cached tools stay unparsed.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier } from "../../text/index.js";
import type { ToolWatcher } from "../store/indexed-tools.js";
import type { PostingStore, SavedStore } from "../store/posting-store.js";
import type { SnapshotReader, SnapshotWriter } from "../store/snapshot-format.js";
import { forEachTermRow, readTermRows, saveTermRows } from "../store/term-rows.js";

/** Snapshot section: per destructive tool, ids ascending, `[id, term count, term…]`. */
const TOOLS_SECTION = "destructiveTools";
const NO_TERMS = new Int32Array(0);

/**
 * The terms of a name's words of 2+ letters that are not numbers (`V1` splits into `v` and `1`),
 * each once. A stop word is never a term: no query can ask for it, and no count holds it.
 */
function nameTerms(name: string, store: PostingStore): Int32Array {
  const terms: number[] = [];
  for (const word of splitIdentifier(name)) {
    if (word.length < 2 || /^\p{N}+$/u.test(word)) continue;
    const term = store.termId(word);
    if (term >= 0 && !terms.includes(term)) terms.push(term);
  }
  return Int32Array.from(terms);
}

/** Counts, per name term, the destructive tools whose names hold it. */
export class UnaskedDestructive implements ToolWatcher {
  /** A restore hands over this part's rows (`restore`) instead of each tool (`added`). */
  readonly restoresFromSnapshot = true;
  /** Per tool id: the name terms of a destructive tool; undefined for other tools. */
  private termsOf: (Int32Array | undefined)[] = [];
  /** Per term: destructive tools whose names hold it (allocated with the first such tool). */
  private destructiveCount: Int32Array = NO_TERMS;
  private toolCount = 0;

  constructor(private readonly store: PostingStore) {}

  /** True when some indexed tool is marked destructive (otherwise the step has nothing to do). */
  get active(): boolean {
    return this.toolCount > 0;
  }

  added(id: number, tool: ToolDefinition): void {
    if (tool.annotations?.destructiveHint !== true) return;
    this.count(id, nameTerms(tool.name, this.store));
  }

  removed(id: number): void {
    const terms = this.termsOf[id];
    if (terms === undefined) return;
    for (const term of terms) this.destructiveCount[term] = (this.destructiveCount[term] ?? 1) - 1;
    this.termsOf[id] = undefined;
    this.toolCount -= 1;
  }

  /**
   * True when `doc` is a destructive tool whose name has a destructive word and `terms` (the
   * query's planned terms) holds none of them.
   */
  unasked(doc: number, terms: readonly { id: number }[]): boolean {
    const own = this.termsOf[doc];
    if (own === undefined) return false;
    const { nameFrequency } = this.store;
    let marked = false;
    for (let index = 0; index < own.length; index += 1) {
      const term = own[index] as number;
      // held mostly (more than half) by destructive tools' names
      if ((this.destructiveCount[term] as number) * 2 <= (nameFrequency[term] as number)) continue;
      for (let find = 0; find < terms.length; find += 1) {
        if ((terms[find] as { id: number }).id === term) return false;
      }
      marked = true;
    }
    return marked;
  }

  private count(id: number, terms: Int32Array): void {
    const needed = this.store.terms.length;
    if (this.destructiveCount.length < needed) {
      const grown = new Int32Array(Math.max(needed, this.destructiveCount.length * 2, 1024));
      grown.set(this.destructiveCount);
      this.destructiveCount = grown;
    }
    for (const term of terms) this.destructiveCount[term] = (this.destructiveCount[term] ?? 0) + 1;
    this.termsOf[id] = terms;
    this.toolCount += 1;
  }

  /** Writes the rows of the live destructive tools (`ids`: the live tools, ascending). */
  save(writer: SnapshotWriter, ids: readonly number[]): void {
    saveTermRows(writer, TOOLS_SECTION, ids, (id) => this.termsOf[id]);
  }

  /**
   * Takes the rows of a snapshot restored into the empty index (checked by
   * `readUnaskedDestructive`): each tool's terms are a view into the snapshot, and the counts
   * are summed from them. Nothing of any tool is read.
   */
  restore(rows: Int32Array): void {
    forEachTermRow(rows, (id, start, end) => this.count(id, rows.subarray(start, end)));
  }
}

/**
 * Reads and checks the step's rows for a snapshot's restored `store`: live tools in id order,
 * each naming terms of the vocabulary that occur in names. Any problem is a `SnapshotProblem`
 * (the index is then built).
 */
export function readUnaskedDestructive(reader: SnapshotReader, store: SavedStore): Int32Array {
  const { nameFrequency } = store;
  return readTermRows(reader, TOOLS_SECTION, store, {
    what: "destructive tools",
    holds: (term) =>
      term >= 0 && term < nameFrequency.length && (nameFrequency[term] as number) > 0,
    otherwise: "terms that are in no name",
  });
}
