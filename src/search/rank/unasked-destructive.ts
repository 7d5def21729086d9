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
 * What a query reads is kept in arrays: per word slot its counts and vocabulary term, per
 * destructive tool its words' slots. A snapshot carries them (`save`, `restore`), so a restored
 * index reads no tool's annotations and splits no name for this step: the CLI's lazily parsed
 * cached tools stay unparsed. Only a change after a restore counts the names again.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier } from "../../text/index.js";
import type { ToolWatcher } from "../store/indexed-tools.js";
import type { SavedStore } from "../store/posting-store.js";
import {
  SnapshotProblem,
  type SnapshotReader,
  type SnapshotWriter,
} from "../store/snapshot-format.js";
import type { Vocabulary } from "../store/vocabulary.js";

/** Snapshot section: per word slot, `[destructive tools, all tools, term id or -1]`. */
const WORDS_SECTION = "destructiveWords";
/** Snapshot section: per destructive tool, ids ascending, `[id, word count, slot…]`. */
const TOOLS_SECTION = "destructiveTools";
/** Numbers per word slot in `stats` (the layout of `WORDS_SECTION`). */
const STRIDE = 3;

/** The step's sections of a snapshot, checked by `readUnaskedDestructive`. */
export interface SavedDestructive {
  words: Int32Array;
  tools: Int32Array;
}

/** Name words of 2+ letters that are not numbers (`V1` splits into `v` and `1`). */
function nameWords(name: string): string[] {
  const words = new Set<string>();
  for (const word of splitIdentifier(name)) {
    if (word.length > 1 && !/^\p{N}+$/u.test(word)) words.add(word);
  }
  return [...words];
}

/** Counts, per name word, the tools and the destructive tools whose names hold it. */
export class UnaskedDestructive implements ToolWatcher {
  /** A restore hands over this part's tables (`restore`) instead of each tool (`added`). */
  readonly restoresFromSnapshot = true;
  /** Per word slot: destructive tools, all tools, vocabulary term (-1: a stop word, never a term). */
  private stats: Int32Array = new Int32Array(64 * STRIDE);
  private slotCount = 0;
  /** Word → slot; empty after a restore (queries read slots only) until the first change. */
  private slots = new Map<string, number>();
  /** Per tool id: the slots of a destructive tool's name words; undefined for other tools. */
  private wordsOf: (Int32Array | undefined)[] = [];
  private destructiveCount = 0;
  /** After a restore, until the first change: the restored tools' ids (their counts are partial). */
  private restoredIds: Int32Array | undefined;

  constructor(
    private readonly tools: readonly (ToolDefinition | undefined)[],
    private readonly vocabulary: Vocabulary,
  ) {}

  /** True when some indexed tool is marked destructive (otherwise the step has nothing to do). */
  get active(): boolean {
    return this.destructiveCount > 0;
  }

  added(id: number, tool: ToolDefinition): void {
    if (this.restoredIds !== undefined) this.countRestored();
    this.count(id, tool.name, tool.annotations?.destructiveHint === true);
  }

  removed(id: number, tool: ToolDefinition): void {
    if (this.restoredIds !== undefined) this.countRestored();
    const destructive = this.wordsOf[id] !== undefined;
    for (const word of nameWords(tool.name)) {
      const slot = this.slots.get(word);
      if (slot !== undefined) this.bump(slot, destructive, -1);
    }
    if (destructive) this.destructiveCount -= 1;
    this.wordsOf[id] = undefined;
  }

  /**
   * True when `doc` is a destructive tool whose name has a destructive word and `terms` (the
   * query's planned terms) holds none of them. A few array reads per word of its name.
   */
  unasked(doc: number, terms: readonly { id: number }[]): boolean {
    const slots = this.wordsOf[doc];
    if (slots === undefined) return false;
    const stats = this.stats;
    let marked = false;
    for (let index = 0; index < slots.length; index += 1) {
      const at = (slots[index] as number) * STRIDE;
      if ((stats[at] as number) * 2 <= (stats[at + 1] as number)) continue;
      const term = stats[at + 2] as number;
      for (let find = 0; find < terms.length; find += 1) {
        if ((terms[find] as { id: number }).id === term) return false;
      }
      marked = true;
    }
    return marked;
  }

  private count(id: number, name: string, destructive: boolean): void {
    const words = nameWords(name);
    const slots = new Int32Array(words.length);
    words.forEach((word, index) => {
      const slot = this.slotOf(word);
      this.bump(slot, destructive, 1);
      slots[index] = slot;
    });
    if (destructive) this.destructiveCount += 1;
    this.wordsOf[id] = destructive ? slots : undefined;
  }

  /** Changes a word's counts by `change`: all tools, and destructive ones when `destructive`. */
  private bump(slot: number, destructive: boolean, change: number): void {
    const stats = this.stats;
    const at = slot * STRIDE;
    if (destructive) stats[at] = (stats[at] as number) + change;
    stats[at + 1] = (stats[at + 1] as number) + change;
  }

  /**
   * The slot of a name word, new when unseen. Its term is looked up once: every name word but a
   * stop word is in the vocabulary once its tool is encoded, and terms are never removed.
   */
  private slotOf(word: string): number {
    const known = this.slots.get(word);
    if (known !== undefined) return known;
    const slot = this.slotCount;
    this.slotCount += 1;
    if (this.slotCount * STRIDE > this.stats.length) {
      const grown = new Int32Array(this.stats.length * 2);
      grown.set(this.stats);
      this.stats = grown;
    }
    this.stats[slot * STRIDE + 2] = this.vocabulary.termId(word);
    this.slots.set(word, slot);
    return slot;
  }

  /**
   * Counts the restored tools from their names, with the destructive flags the snapshot gave:
   * the saved tables hold only the words of destructive tools, and a change may need any word.
   */
  private countRestored(): void {
    const ids = this.restoredIds as Int32Array;
    const restoredWords = this.wordsOf;
    this.restoredIds = undefined;
    this.stats = new Int32Array(64 * STRIDE);
    this.slotCount = 0;
    this.wordsOf = [];
    this.destructiveCount = 0;
    for (const id of ids) {
      const tool = this.tools[id] as ToolDefinition;
      this.count(id, tool.name, restoredWords[id] !== undefined);
    }
  }

  /** Writes the tables of the live tools (`ids`, ascending): the destructive tools' words only. */
  save(writer: SnapshotWriter, ids: readonly number[]): void {
    if (this.restoredIds !== undefined) this.countRestored();
    const renumbered = new Int32Array(this.slotCount).fill(-1);
    const words: number[] = [];
    const rows: number[] = [];
    for (const id of ids) {
      const slots = this.wordsOf[id];
      if (slots === undefined) continue;
      rows.push(id, slots.length);
      for (const slot of slots) {
        if ((renumbered[slot] as number) < 0) {
          renumbered[slot] = words.length / STRIDE;
          words.push(...this.stats.subarray(slot * STRIDE, slot * STRIDE + STRIDE));
        }
        rows.push(renumbered[slot] as number);
      }
    }
    writer.array(WORDS_SECTION, "i32", Int32Array.from(words));
    writer.array(TOOLS_SECTION, "i32", Int32Array.from(rows));
  }

  /**
   * Takes the tables of a snapshot restored into the empty index (`ids`: the restored tools'
   * ids); the rows are views into the snapshot, and nothing of any tool is read.
   */
  restore(saved: SavedDestructive, ids: Int32Array): void {
    const { words, tools } = saved;
    this.stats = words;
    this.slotCount = words.length / STRIDE;
    this.slots = new Map();
    this.wordsOf = [];
    this.destructiveCount = 0;
    for (let at = 0; at < tools.length; ) {
      const id = tools[at] as number;
      const count = tools[at + 1] as number;
      this.wordsOf[id] = tools.subarray(at + 2, at + 2 + count);
      this.destructiveCount += 1;
      at += 2 + count;
    }
    this.restoredIds = ids;
  }
}

/**
 * Reads and checks the step's sections for a snapshot's restored `store`: counts within the tool
 * count, terms within the vocabulary, rows of live tools in id order naming known slots. Any
 * problem is a `SnapshotProblem` (the index is then built).
 */
export function readUnaskedDestructive(
  reader: SnapshotReader,
  store: SavedStore,
): SavedDestructive {
  const words = reader.i32(WORDS_SECTION);
  const tools = reader.i32(TOOLS_SECTION);
  const { liveCount, nextId } = store.counts;
  const termCount = store.vocabulary.terms.length;
  if (words.length % STRIDE !== 0) throw new SnapshotProblem("its destructive words are mis-sized");
  for (let at = 0; at < words.length; at += STRIDE) {
    const destructive = words[at] as number;
    const all = words[at + 1] as number;
    const term = words[at + 2] as number;
    const counted = 0 < destructive && destructive <= all && all <= liveCount;
    if (!counted || term < -1 || term >= termCount) {
      throw new SnapshotProblem("its destructive word counts are out of range");
    }
  }
  const slotCount = words.length / STRIDE;
  let previous = -1;
  for (let at = 0; at < tools.length; ) {
    const id = tools[at] as number;
    const count = tools[at + 1] ?? -1;
    const end = at + 2 + count;
    if (
      id <= previous ||
      id >= nextId ||
      store.alive[id] !== 1 ||
      count < 0 ||
      end > tools.length
    ) {
      throw new SnapshotProblem("its destructive tools are out of order or not live");
    }
    for (let slot = at + 2; slot < end; slot += 1) {
      const value = tools[slot] as number;
      if (value < 0 || value >= slotCount) {
        throw new SnapshotProblem("its destructive tools name unknown words");
      }
    }
    previous = id;
    at = end;
  }
  return { words, tools };
}
