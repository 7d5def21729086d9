/**
 * The index's name lookups (exact name, case-insensitive name, name suffix, name phrase) as
 * hashed id tables that store no strings: each key is rebuilt from the tool to confirm a hit.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { nameSuffix, nameSuffixStart } from "../../internal/index.js";
import { splitIdentifier } from "../../text/index.js";
import {
  HashedIds,
  hashFrom,
  lowerHashFrom,
  readHashedIds,
  type SavedHashedIds,
} from "./hashed-ids.js";
import { phraseKey } from "./phrase-key.js";
import { HASH_SEED } from "./piece-table.js";
import type { SnapshotReader, SnapshotWriter } from "./snapshot-format.js";

const NON_ASCII = /[^\0-\x7f]/;

/** Hash of `nameSuffix(name.toLowerCase())`; `cut`, when known, is `nameSuffixStart` of an ASCII name. */
function suffixHash(name: string, cut: number, seed: number): number {
  if (cut >= 0) return lowerHashFrom(name, cut, seed);
  if (NON_ASCII.test(name)) return hashFrom(nameSuffix(name.toLowerCase()), 0, seed);
  return lowerHashFrom(name, nameSuffixStart(name), seed);
}

/** The name tables as a snapshot holds them (filed with the vocabulary's `hashSeed`). */
export interface SavedNameLookup {
  byName: SavedHashedIds;
  bySuffix: SavedHashedIds;
  byPhrase: SavedHashedIds;
}

/** Reads and checks the name tables of a snapshot for tool ids below `idLimit`. */
export function readNameLookup(reader: SnapshotReader, idLimit: number): SavedNameLookup {
  return {
    byName: readHashedIds(reader, "namesByName", idLimit),
    bySuffix: readHashedIds(reader, "namesBySuffix", idLimit),
    byPhrase: readHashedIds(reader, "namesByPhrase", idLimit),
  };
}

/** The phrase key of a tool name (see `phraseKey`). */
export function namePhraseOf(name: string): string {
  return phraseKey(splitIdentifier(nameSuffix(name)));
}

/** Tool ids by name, lowercased name, lowercased name suffix and name phrase. */
export class NameLookup {
  /** By the hash of the lowercased name (exact lookups compare the name itself). */
  private readonly byName = new HashedIds();
  private readonly bySuffix = new HashedIds();
  private readonly byPhrase = new HashedIds();
  /** The hash basis, shared with the index's vocabulary (a restore adopts the saved one). */
  private seed = HASH_SEED;

  constructor(private readonly tools: readonly (ToolDefinition | undefined)[]) {}

  /** Number of names filed. */
  get size(): number {
    return this.byName.size;
  }

  /** Makes room for `count` more tools at once (a bulk add). */
  reserve(count: number): void {
    this.byName.reserve(count);
    this.bySuffix.reserve(count);
    this.byPhrase.reserve(count);
  }

  /**
   * Files tool `id` (already in `tools`) under its name; `phraseHash` is `hashFrom` of its phrase
   * key and `cut` the `nameSuffixStart` of an all-ASCII name, when the caller has them at hand.
   */
  add(id: number, name: string, phraseHash?: number, cut = -1): void {
    const seed = this.seed;
    this.byName.add(lowerHashFrom(name, 0, seed), id);
    this.bySuffix.add(suffixHash(name, cut, seed), id);
    this.byPhrase.add(phraseHash ?? hashFrom(namePhraseOf(name), 0, seed), id);
  }

  /** Writes the tables as they are, for tool ids below `idLimit`. */
  save(writer: SnapshotWriter, idLimit: number): void {
    this.byName.save(writer, "namesByName", idLimit);
    this.bySuffix.save(writer, "namesBySuffix", idLimit);
    this.byPhrase.save(writer, "namesByPhrase", idLimit);
  }

  /**
   * Takes the tables of a snapshot as they are (into an empty lookup), with the basis they were
   * filed with: no name is split, stemmed or hashed. A wrong table could only cost a hit, never
   * give a wrong one: every lookup confirms its ids against the name itself.
   */
  restore(saved: SavedNameLookup, seed: number): void {
    this.seed = seed;
    this.byName.restore(saved.byName);
    this.bySuffix.restore(saved.bySuffix);
    this.byPhrase.restore(saved.byPhrase);
  }

  /** Removes tool `id` from every name table. */
  delete(id: number): void {
    // by the hash each id was filed under, so no key is recomputed (and none can differ)
    this.byName.deleteId(id);
    this.bySuffix.deleteId(id);
    this.byPhrase.deleteId(id);
  }

  /** The id of the tool with exactly this name, or -1. */
  idOf(name: string): number {
    return this.byName.find(
      lowerHashFrom(name, 0, this.seed),
      (id) => this.tools[id]?.name === name,
    );
  }

  /** Ids of the tools whose lowercased name is `lower`, in the order they were added. */
  idsByLowerName(lower: string, out: number[] = []): number[] {
    return this.byName.collect(
      hashFrom(lower, 0, this.seed),
      (id) => this.tools[id]?.name.toLowerCase() === lower,
      out,
    );
  }

  /** Ids of the tools whose lowercased name suffix (see `nameSuffix`) is `lower`. */
  idsBySuffix(lower: string, out: number[] = []): number[] {
    return this.bySuffix.collect(
      hashFrom(lower, 0, this.seed),
      (id) => {
        const name = this.tools[id]?.name;
        return name !== undefined && nameSuffix(name.toLowerCase()) === lower;
      },
      out,
    );
  }

  /** Ids of the tools whose name phrase key (see `namePhraseOf`) is `phrase`. */
  idsByPhrase(phrase: string): number[] {
    return this.byPhrase.collect(
      hashFrom(phrase, 0, this.seed),
      (id) => {
        const name = this.tools[id]?.name;
        return name !== undefined && namePhraseOf(name) === phrase;
      },
      [],
    );
  }
}
