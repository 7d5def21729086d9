/**
 * What the companion steps read of each tool, kept per tool id: the ids its required parameters
 * need (`requiredIds`, for finders) and the name-shaped words of its text (`nameShapedWords`,
 * for mentions). Each is worked out on first use, or read from a snapshot, which carries them for
 * every tool: a restored index then never reads a tool's schema or description for companions,
 * so tools parsed on first read (the CLI's cache entries) stay unparsed through a whole `rank`.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import type { ToolWatcher } from "../store/indexed-tools.js";
import type { SnapshotWriter } from "../store/snapshot-format.js";
import { nameShapedWords } from "./mentions.js";
import { type RequiredIds, requiredIds } from "./prerequisites.js";

/** The snapshot section that carries the facts (a JSON section, see `SavedFacts`). */
export const FACTS_SECTION = "companionFacts";

/**
 * The section's JSON: only tools that have something, by position among the live tools in id
 * order (the order a snapshot lists tools in): `needs` rows are [position, entities,
 * parameters], `words` rows [position, words].
 */
interface SavedFacts {
  needs: [number, string[], string[]][];
  words: [number, string[]][];
}

const NONE: readonly string[] = [];
const NO_IDS: RequiredIds = { entities: NONE, parameters: NONE };

/** The companion facts of the indexed tools, by tool id; see the module comment. */
export class CompanionFacts implements ToolWatcher {
  private readonly needs: (RequiredIds | undefined)[] = [];
  private readonly words: (readonly string[] | undefined)[] = [];
  /** A snapshot's section and tool ids, read on first use (most restores never need them). */
  private saved: { read: () => unknown; ids: Int32Array } | undefined;

  constructor(private readonly tools: readonly (ToolDefinition | undefined)[]) {}

  /** The entities and parameters the tool at `id` needs (none for a free id). */
  needsOf(id: number): RequiredIds {
    return this.factOf(this.needs, id, requiredIds, NO_IDS);
  }

  /** The name-shaped words of the tool at `id` (none for a free id). */
  wordsOf(id: number): readonly string[] {
    return this.factOf(this.words, id, nameShapedWords, NONE);
  }

  /** One fact of the tool at `id`: saved, worked out before, or worked out now and kept. */
  private factOf<T>(
    facts: (T | undefined)[],
    id: number,
    workOut: (tool: ToolDefinition) => T,
    none: T,
  ): T {
    if (this.saved !== undefined) this.readSaved();
    const known = facts[id];
    if (known !== undefined) return known;
    const tool = this.tools[id];
    if (tool === undefined) return none;
    const fact = workOut(tool);
    facts[id] = fact;
    return fact;
  }

  /** Forgets the facts of the tool at `id` (its id may be reused). */
  removed(id: number): void {
    // a pending section is read first, so it cannot later fill this id for another tool
    if (this.saved !== undefined) this.readSaved();
    this.needs[id] = undefined;
    this.words[id] = undefined;
  }

  /** Writes the facts of every live tool (`ids`, ascending) into a snapshot. */
  save(writer: SnapshotWriter, ids: readonly number[]): void {
    const saved: SavedFacts = { needs: [], words: [] };
    ids.forEach((id, position) => {
      const needs = this.needsOf(id);
      if (needs.entities.length > 0) {
        saved.needs.push([position, [...needs.entities], [...needs.parameters]]);
      }
      const words = this.wordsOf(id);
      if (words.length > 0) saved.words.push([position, [...words]]);
    });
    writer.json(FACTS_SECTION, saved);
  }

  /**
   * Takes the facts of a snapshot restored into the empty index: `read` parses the section,
   * `ids` are the restored tools' ids in snapshot order. Nothing is parsed until first use.
   */
  restore(read: () => unknown, ids: Int32Array): void {
    this.saved = { read, ids };
  }

  /**
   * Fills the tables from the pending section. A section that does not parse to the expected
   * shape is skipped as a whole (the snapshot's checksum passed, so only a hand-made file gets
   * here): the facts are then worked out from the tools, as without a snapshot.
   */
  private readSaved(): void {
    const { read, ids } = this.saved as { read: () => unknown; ids: Int32Array };
    this.saved = undefined;
    let saved: unknown;
    try {
      saved = read();
    } catch {
      return;
    }
    if (!isSavedFacts(saved, ids.length)) return;
    // the section lists only tools that have something: every other restored tool has nothing
    for (const id of ids) {
      this.needs[id] = NO_IDS;
      this.words[id] = NONE;
    }
    for (const [position, entities, parameters] of saved.needs) {
      this.needs[ids[position] as number] = { entities, parameters };
    }
    for (const [position, words] of saved.words) this.words[ids[position] as number] = words;
  }
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

const isPosition = (value: unknown, count: number): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) < count;

/** True when `value` is a `SavedFacts` whose positions fall among `count` tools. */
function isSavedFacts(value: unknown, count: number): value is SavedFacts {
  if (value === null || typeof value !== "object") return false;
  const { needs, words } = value as Record<string, unknown>;
  if (!Array.isArray(needs) || !Array.isArray(words)) return false;
  const needsOk = needs.every(
    (row) =>
      Array.isArray(row) &&
      isPosition(row[0], count) &&
      isStrings(row[1]) &&
      isStrings(row[2]) &&
      row[1].length === row[2].length,
  );
  return (
    needsOk &&
    words.every((row) => Array.isArray(row) && isPosition(row[0], count) && isStrings(row[1]))
  );
}
