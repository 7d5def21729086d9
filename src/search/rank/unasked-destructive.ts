/**
 * Destructive tools the query did not ask for rank lower. A tool marked destructive
 * (`annotations.destructiveHint: true`) usually shares the words of its object with safer
 * siblings (`VPS_deleteSnapshotV1`, `VPS_getSnapshotV1`, `VPS_createSnapshotV1`) and often has the
 * longest description about it, so a query naming only the object ("vps snapshot") used to get
 * the delete tool first. The catalog's own annotations say which name words carry the
 * destructive act: a word found mostly (more than half) in the names of destructive tools. A
 * destructive tool whose name holds such a word, none of which the query asks for (the word, an
 * inflection or a synonym of it among the query's terms), has its lexical score scaled down.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier } from "../../text/index.js";
import type { ToolWatcher } from "../store/indexed-tools.js";

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
  /** Per name word: [destructive tools, all tools] holding it. */
  private readonly counts = new Map<string, [number, number]>();
  /** The name words of each destructive tool, by document id. */
  private readonly destructive = new Map<number, readonly string[]>();

  /** True when some indexed tool is marked destructive (otherwise the step has nothing to do). */
  get active(): boolean {
    return this.destructive.size > 0;
  }

  added(id: number, tool: ToolDefinition): void {
    const isDestructive = tool.annotations?.destructiveHint === true;
    const words = nameWords(tool.name);
    for (const word of words) {
      const count = this.counts.get(word) ?? [0, 0];
      if (isDestructive) count[0] += 1;
      count[1] += 1;
      this.counts.set(word, count);
    }
    if (isDestructive) this.destructive.set(id, words);
  }

  removed(id: number, tool: ToolDefinition): void {
    const isDestructive = tool.annotations?.destructiveHint === true;
    for (const word of nameWords(tool.name)) {
      const count = this.counts.get(word);
      if (count === undefined) continue;
      if (isDestructive) count[0] -= 1;
      count[1] -= 1;
      if (count[1] <= 0) this.counts.delete(word);
    }
    this.destructive.delete(id);
  }

  /** True when `doc` is marked destructive. */
  has(doc: number): boolean {
    return this.destructive.has(doc);
  }

  /**
   * True when `doc` is a destructive tool whose name has a destructive word and `asked` (the
   * query's planned terms, as vocabulary words) holds none of them.
   */
  unasked(doc: number, asked: ReadonlySet<string>): boolean {
    const words = this.destructive.get(doc);
    if (words === undefined) return false;
    let marked = false;
    for (const word of words) {
      const count = this.counts.get(word);
      if (count === undefined || count[0] * 2 <= count[1]) continue;
      if (asked.has(word)) return false;
      marked = true;
    }
    return marked;
  }
}
