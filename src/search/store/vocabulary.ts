/**
 * The index's vocabulary: term ids by text, by Porter stem and by prefix, and the terms that have
 * occurred in names. The text and stem lookups are hashed id tables confirmed against `terms`, so
 * they keep no Map entry or extra string per term (a vocabulary of 100k terms kept 7 MB of heap).
 */

import { letterMask } from "../../internal/index.js";
import { stem } from "../../text/index.js";
import { HashedIds, hashFrom, readHashedIds, type SavedHashedIds } from "./hashed-ids.js";
import { HASH_SEED } from "./piece-table.js";
import { SnapshotProblem, type SnapshotReader, type SnapshotWriter } from "./snapshot-format.js";

/** The vocabulary as a snapshot holds it, checked and ready to restore. */
export interface SavedVocabulary {
  terms: string[];
  /** Term id → Porter stem, for the terms whose stem differs from the term. */
  stems: Map<number, string>;
  /** Terms that occurred in names, in the order they were first noted. */
  named: Int32Array<ArrayBuffer>;
  /** The hash basis the tables were filed with, and the tables as they are. */
  hashSeed: number;
  byText: SavedHashedIds;
  byStem: SavedHashedIds;
}

/** The first two UTF-16 code units of a text (at least two long) as one number. */
function prefixKey(text: string): number {
  return text.charCodeAt(0) * 65536 + text.charCodeAt(1);
}

/** Terms by text, stem and prefix; a subclass sizes its per-term arrays in `termAdded`. */
export class Vocabulary {
  /**
   * The hash basis of this index's text and stem tables (and its name tables): the process's
   * `HASH_SEED`, or the one a snapshot's tables were filed with, so a restore re-hashes nothing.
   */
  hashSeed = HASH_SEED;
  readonly terms: string[] = [];
  /** Term ids by the hash of their text. */
  private readonly byText = new HashedIds();
  /** Term ids by the hash of their Porter stem. */
  private readonly byStem = new HashedIds();
  /** The Porter stem of each term whose stem is not the term itself. */
  private readonly otherStems = new Map<number, string>();
  /** Vocabulary terms by their first two characters (`~` compounds left out), for prefix lookups. */
  private readonly prefixBuckets = new Map<number, number[]>();
  /** Terms below this id are in `prefixBuckets`: a restore leaves them to the first reader. */
  private prefixed = 0;
  /** Prefix buckets that gained terms since they were last sorted by text (`termsWithPrefix`). */
  private readonly unsortedBuckets = new Set<number[]>();
  /** Terms that have occurred in a name, by length (for suggestions); check `nameFrequency`. */
  private readonly namedByLength: number[][] = [];
  /** The same for all-digit terms (ids numbered per tool are common), kept apart. */
  private readonly namedNumbersByLength: number[][] = [];
  protected everNamed = new Uint8Array(0);
  /** `letterMask` of each term that has occurred in a name (a cheap edit-distance bound). */
  namedMask = new Int32Array(0);
  /**
   * Named terms read from a snapshot and not yet put in the length buckets: only "did you mean"
   * reads the buckets and masks, so a restore leaves them to the first reader (order is kept).
   */
  private unbucketed: Int32Array | undefined;

  /** The id of a term, or -1 when it is not in the vocabulary. */
  termId(term: string): number {
    return this.byText.find(hashFrom(term, 0, this.hashSeed), (id) => this.terms[id] === term);
  }

  /** The Porter stem of term `term`. */
  stemOf(term: number): string {
    return this.otherStems.get(term) ?? (this.terms[term] as string);
  }

  /** Ids of the vocabulary terms whose Porter stem is `stemmed`, in id order. */
  stemGroup(stemmed: string): readonly number[] {
    const hash = hashFrom(stemmed, 0, this.hashSeed);
    return this.byStem.collect(hash, (id) => this.stemOf(id) === stemmed, []);
  }

  /** The id of a term, added to the vocabulary when new. */
  intern(token: string): number {
    const hash = hashFrom(token, 0, this.hashSeed);
    const known = this.byText.find(hash, (id) => this.terms[id] === token);
    if (known >= 0) return known;
    return this.file(token, hash, stem(token));
  }

  /** Adds a new term under its text hash and stem; returns its id. */
  private file(token: string, hash: number, stemmed: string): number {
    const term = this.terms.length;
    this.terms.push(token);
    this.byText.add(hash, term);
    // most terms are their own stem: their text hash is their stem hash (a restore hashes every
    // term in cold code, so each hash saved counts)
    if (stemmed !== token) this.otherStems.set(term, stemmed);
    this.byStem.add(stemmed === token ? hash : hashFrom(stemmed, 0, this.hashSeed), term);
    if (term >= this.everNamed.length) {
      this.growNamed(Math.max(1024, Math.ceil(this.everNamed.length * 1.5)));
    }
    this.termAdded(term);
    return term;
  }

  private growNamed(capacity: number): void {
    const named = new Uint8Array(capacity);
    named.set(this.everNamed);
    this.everNamed = named;
    const masks = new Int32Array(capacity);
    masks.set(this.namedMask);
    this.namedMask = masks;
  }

  /**
   * The prefix buckets with every term in them; a bucket that gained terms is listed in
   * `unsortedBuckets` until a lookup sorts it.
   */
  private prefixes(): Map<number, number[]> {
    const buckets = this.prefixBuckets;
    for (let term = this.prefixed; term < this.terms.length; term += 1) {
      const token = this.terms[term] as string;
      if (token.length < 2 || token.startsWith("~")) continue;
      const key = prefixKey(token);
      let bucket = buckets.get(key);
      if (bucket) bucket.push(term);
      else {
        bucket = [term];
        buckets.set(key, bucket);
      }
      this.unsortedBuckets.add(bucket);
    }
    this.prefixed = this.terms.length;
    return buckets;
  }

  /** Writes the terms, their stems and the named terms into a snapshot. */
  protected saveVocabulary(writer: SnapshotWriter): void {
    this.bucketRestored();
    const stems: (number | string)[] = [];
    for (const [term, stemmed] of this.otherStems) stems.push(term, stemmed);
    const named: number[] = [];
    for (const bucket of [...this.namedByLength, ...this.namedNumbersByLength])
      named.push(...bucket);
    // compounds (`~`) are noted but never bucketed
    for (let term = 0; term < this.terms.length; term += 1) {
      if (this.everNamed[term] === 1 && (this.terms[term] as string).startsWith("~"))
        named.push(term);
    }
    writer.json("terms", { terms: this.terms, stems });
    writer.array("namedTerms", "i32", Int32Array.from(named));
    // the tables as they are, with their basis (saved as an unsigned value)
    writer.value("hashSeed", this.hashSeed >>> 0);
    this.byText.save(writer, "termsByText", this.terms.length);
    this.byStem.save(writer, "termsByStem", this.terms.length);
  }

  /**
   * Fills an empty vocabulary from a snapshot read by `readVocabulary`: terms, stems and hashed
   * tables are taken as they are (nothing is stemmed or hashed); a subclass sizes its per-term
   * arrays in `termsRestored`. Prefix buckets and named-term buckets wait for their first reader.
   */
  protected restoreVocabulary(saved: SavedVocabulary): void {
    const { terms, stems } = saved;
    for (let term = 0; term < terms.length; term += 1) this.terms.push(terms[term] as string);
    for (const [term, stemmed] of stems) this.otherStems.set(term, stemmed);
    this.hashSeed = saved.hashSeed;
    this.byText.restore(saved.byText);
    this.byStem.restore(saved.byStem);
    this.growNamed(Math.max(1024, terms.length));
    for (const term of saved.named) this.everNamed[term] = 1;
    this.unbucketed = saved.named;
    this.termsRestored(terms.length);
  }

  /** Called once after a restore with the number of terms, in place of `termAdded` for each. */
  protected termsRestored(_count: number): void {}

  /** Buckets the named terms a restore left (see `unbucketed`), before any other is noted. */
  private bucketRestored(): void {
    const pending = this.unbucketed;
    if (pending === undefined) return;
    this.unbucketed = undefined;
    for (const term of pending) this.bucketNamed(term);
  }

  /** Called for each new term, so a subclass can give its per-term arrays room for it. */
  protected termAdded(_term: number): void {}

  /**
   * Vocabulary terms starting with `prefix` (at least two characters), in text order. The bucket
   * of the first two characters is kept sorted by text, so the terms are found by a binary search
   * and read in one run: scanning the bucket read a few hundred term strings per query word (a
   * million over the 3,148 distinct words of a warm wide-vocabulary `rank`).
   */
  termsWithPrefix(prefix: string, visit: (term: number, text: string) => void): void {
    if (prefix.length < 2) return;
    const bucket = this.prefixes().get(prefixKey(prefix));
    if (bucket === undefined) return;
    const terms = this.terms;
    if (this.unsortedBuckets.delete(bucket)) {
      // code-unit order, as `sort()` orders the texts themselves
      bucket.sort((a, b) => {
        const textA = terms[a] as string;
        const textB = terms[b] as string;
        return textA < textB ? -1 : textA > textB ? 1 : 0;
      });
    }
    let low = 0;
    let high = bucket.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((terms[bucket[middle] as number] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < bucket.length; at += 1) {
      const term = bucket[at] as number;
      const text = terms[term] as string;
      if (!text.startsWith(prefix)) break;
      visit(term, text);
    }
  }

  /**
   * Terms of this length that have occurred in a name (some may no longer: check `nameFrequency`),
   * all-digit ones or the others.
   */
  namedTermsOfLength(length: number, digits: boolean): readonly number[] {
    this.bucketRestored();
    return (digits ? this.namedNumbersByLength : this.namedByLength)[length] ?? [];
  }

  /** Notes that `term` occurs in a name (once per term). */
  protected noteNamed(term: number): void {
    this.bucketRestored();
    this.everNamed[term] = 1;
    this.bucketNamed(term);
  }

  private bucketNamed(term: number): void {
    const text = this.terms[term] as string;
    this.namedMask[term] = letterMask(text);
    if (text.startsWith("~")) return;
    const buckets = /^[0-9]+$/.test(text) ? this.namedNumbersByLength : this.namedByLength;
    while (buckets.length <= text.length) buckets.push([]);
    buckets[text.length]?.push(term);
  }
}

/** Reads and checks the vocabulary sections of a snapshot, without changing anything. */
export function readVocabulary(reader: SnapshotReader): SavedVocabulary {
  const data = reader.json("terms") as { terms?: unknown; stems?: unknown } | null;
  const terms = data?.terms;
  const flat = data?.stems;
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === "string")) {
    throw new SnapshotProblem("its terms are not a list of strings");
  }
  if (!Array.isArray(flat) || flat.length % 2 !== 0) {
    throw new SnapshotProblem("its stems are not pairs of term and stem");
  }
  const stems = new Map<number, string>();
  for (let index = 0; index < flat.length; index += 2) {
    const term = flat[index];
    const stemmed = flat[index + 1];
    if (
      !Number.isInteger(term) ||
      term < 0 ||
      term >= terms.length ||
      typeof stemmed !== "string"
    ) {
      throw new SnapshotProblem(`its stem entry ${index / 2} is invalid`);
    }
    stems.set(term as number, stemmed);
  }
  const named = reader.i32("namedTerms");
  for (const term of named) {
    if (term < 0 || term >= terms.length)
      throw new SnapshotProblem("its named terms are out of range");
  }
  const termCount = terms.length;
  return {
    terms: terms as string[],
    stems,
    named,
    hashSeed: reader.value("hashSeed") | 0,
    byText: readHashedIds(reader, "termsByText", termCount),
    byStem: readHashedIds(reader, "termsByStem", termCount),
  };
}
