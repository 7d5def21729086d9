/**
 * The index's vocabulary: term ids by text, by Porter stem and by prefix, and the terms that have
 * occurred in names. The text and stem lookups are hashed id tables confirmed against `terms`, so
 * they keep no Map entry or extra string per term (a vocabulary of 100k terms kept 7 MB of heap).
 */

import { letterMask } from "../../internal/index.js";
import { stem } from "../../text/index.js";
import { HashedIds, hashFrom } from "./hashed-ids.js";

/** The first two UTF-16 code units of a text (at least two long) as one number. */
function prefixKey(text: string): number {
  return text.charCodeAt(0) * 65536 + text.charCodeAt(1);
}

/** Terms by text, stem and prefix; a subclass sizes its per-term arrays in `termAdded`. */
export class Vocabulary {
  readonly terms: string[] = [];
  /** Term ids by the hash of their text. */
  private readonly byText = new HashedIds();
  /** Term ids by the hash of their Porter stem. */
  private readonly byStem = new HashedIds();
  /** The Porter stem of each term whose stem is not the term itself. */
  private readonly otherStems = new Map<number, string>();
  /** Vocabulary terms by their first two characters (`~` compounds left out), for prefix lookups. */
  private readonly prefixBuckets = new Map<number, number[]>();
  /** Terms that have occurred in a name, by length (for suggestions); check `nameFrequency`. */
  private readonly namedByLength: number[][] = [];
  /** The same for all-digit terms (ids numbered per tool are common), kept apart. */
  private readonly namedNumbersByLength: number[][] = [];
  protected everNamed = new Uint8Array(0);
  /** `letterMask` of each term that has occurred in a name (a cheap edit-distance bound). */
  namedMask = new Int32Array(0);

  /** The id of a term, or -1 when it is not in the vocabulary. */
  termId(term: string): number {
    return this.byText.find(hashFrom(term), (id) => this.terms[id] === term);
  }

  /** The Porter stem of term `term`. */
  stemOf(term: number): string {
    return this.otherStems.get(term) ?? (this.terms[term] as string);
  }

  /** Ids of the vocabulary terms whose Porter stem is `stemmed`, in id order. */
  stemGroup(stemmed: string): readonly number[] {
    return this.byStem.collect(hashFrom(stemmed), (id) => this.stemOf(id) === stemmed, []);
  }

  /** The id of a term, added to the vocabulary when new. */
  intern(token: string): number {
    const hash = hashFrom(token);
    const known = this.byText.find(hash, (id) => this.terms[id] === token);
    if (known >= 0) return known;
    const term = this.terms.length;
    this.terms.push(token);
    this.byText.add(hash, term);
    const stemmed = stem(token);
    if (stemmed !== token) this.otherStems.set(term, stemmed);
    this.byStem.add(hashFrom(stemmed), term);
    if (token.length >= 2 && !token.startsWith("~")) {
      const key = prefixKey(token);
      const bucket = this.prefixBuckets.get(key);
      if (bucket) bucket.push(term);
      else this.prefixBuckets.set(key, [term]);
    }
    if (term >= this.everNamed.length) {
      const capacity = Math.max(1024, Math.ceil(this.everNamed.length * 1.5));
      const named = new Uint8Array(capacity);
      named.set(this.everNamed);
      this.everNamed = named;
      const masks = new Int32Array(capacity);
      masks.set(this.namedMask);
      this.namedMask = masks;
    }
    this.termAdded(term);
    return term;
  }

  /** Called for each new term, so a subclass can give its per-term arrays room for it. */
  protected termAdded(_term: number): void {}

  /** Vocabulary terms starting with `prefix` (at least two characters), in no particular order. */
  termsWithPrefix(prefix: string, visit: (term: number, text: string) => void): void {
    if (prefix.length < 2) return;
    for (const term of this.prefixBuckets.get(prefixKey(prefix)) ?? []) {
      const text = this.terms[term] as string;
      if (text.startsWith(prefix)) visit(term, text);
    }
  }

  /**
   * Terms of this length that have occurred in a name (some may no longer: check `nameFrequency`),
   * all-digit ones or the others.
   */
  namedTermsOfLength(length: number, digits: boolean): readonly number[] {
    return (digits ? this.namedNumbersByLength : this.namedByLength)[length] ?? [];
  }

  /** Notes that `term` occurs in a name (once per term). */
  protected noteNamed(term: number): void {
    this.everNamed[term] = 1;
    const text = this.terms[term] as string;
    this.namedMask[term] = letterMask(text);
    if (text.startsWith("~")) return;
    const buckets = /^[0-9]+$/.test(text) ? this.namedNumbersByLength : this.namedByLength;
    while (buckets.length <= text.length) buckets.push([]);
    buckets[text.length]?.push(term);
  }
}
