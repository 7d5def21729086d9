/** Per-index caches for query planning: vocabulary lookups of query words, planned-term marks. */

import type { RankingConfig } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";

const MAX_NEIGHBORS = 4;
/** Numbers (weighted as such, never expanded to neighbours). */
export const DIGITS = /^\p{N}+$/u;

/** A vocabulary neighbour of a query word: its term id and its stem. */
interface Neighbor {
  id: number;
  stemmed: string;
}

/** Marks the term ids already planned for the current query (no per-query set). */
export class TermMarks {
  private marks = new Uint32Array(0);
  private epoch = 0;

  /** Starts a new query over a vocabulary of `size` terms. */
  begin(size: number): this {
    if (this.marks.length < size) this.marks = new Uint32Array(Math.max(64, size * 2));
    this.epoch += 1;
    if (this.epoch > 0xfffffff0) {
      this.marks.fill(0);
      this.epoch = 1;
    }
    return this;
  }

  /** Marks `id`; false when it was marked already in this query. */
  mark(id: number): boolean {
    if (this.marks[id] === this.epoch) return false;
    this.marks[id] = this.epoch;
    return true;
  }
}

/**
 * Most entries kept before the cache starts over. A word takes four or more (its id, its `~`
 * compound, its stem group, its neighbours, its synonyms' groups): 16k entries (with word pairs,
 * no longer cached) held fewer than the 3,148 distinct words of a wide-vocabulary `rank` of 2,000
 * queries, which started over twice. 64k entries hold a few MB.
 */
const CACHE_LIMIT = 65_536;

/**
 * Vocabulary lookups of query words (prefix neighbours, term ids, stem groups), made once per word
 * while the vocabulary stays the same size (terms are only ever appended to it, so its size is its
 * version: an id or a stem group never changes while it does not grow).
 */
export class NeighborCache {
  private vocabulary = -1;
  private readonly byWord = new Map<string, readonly Neighbor[]>();
  private readonly ids = new Map<string, number>();
  private readonly compounds = new Map<string, number>();
  private readonly groups = new Map<string, readonly number[]>();
  private readonly seen = new TermMarks();

  /** Starts over when the vocabulary grew or the cache holds too many words. */
  private sync(store: PostingStore): void {
    const held = this.byWord.size + this.ids.size + this.compounds.size + this.groups.size;
    if (store.terms.length === this.vocabulary && held < CACHE_LIMIT) return;
    this.byWord.clear();
    this.ids.clear();
    this.compounds.clear();
    this.groups.clear();
    this.vocabulary = store.terms.length;
  }

  /** `store.termId(text)`, cached. */
  termId(text: string, store: PostingStore): number {
    this.sync(store);
    let id = this.ids.get(text);
    if (id === undefined) {
      id = store.termId(text);
      this.ids.set(text, id);
    }
    return id;
  }

  /**
   * The id of the compound term `~stemmed` (a name's words written together), cached by the stem
   * itself: no `~` string is built per query to look it up.
   */
  compoundId(stemmed: string, store: PostingStore): number {
    this.sync(store);
    let id = this.compounds.get(stemmed);
    if (id === undefined) {
      id = store.termId(`~${stemmed}`);
      this.compounds.set(stemmed, id);
    }
    return id;
  }

  /** `store.stemGroup(stemmed)`, cached (do not modify the list). */
  stemGroup(stemmed: string, store: PostingStore): readonly number[] {
    this.sync(store);
    let ids = this.groups.get(stemmed);
    if (ids === undefined) {
      ids = store.stemGroup(stemmed);
      this.groups.set(stemmed, ids);
    }
    return ids;
  }

  /** The planned-term marks, cleared for a new query over `size` vocabulary terms. */
  termMarks(size: number): TermMarks {
    return this.seen.begin(size);
  }

  /** The neighbours of `token` in the store's vocabulary, as `prefixNeighbors` finds them. */
  get(token: string, store: PostingStore, config: RankingConfig): readonly Neighbor[] {
    this.sync(store);
    let known = this.byWord.get(token);
    if (known === undefined) {
      // the vocabulary holds each term's stem, worked out when the term was filed
      known = prefixNeighbors(token, store, config).map((id) => ({
        id,
        stemmed: store.stemOf(id),
      }));
      this.byWord.set(token, known);
    }
    return known;
  }
}

/**
 * The ids of the vocabulary terms that extend the stem or that the stem extends (at least 4
 * shared letters).
 */
function prefixNeighbors(token: string, store: PostingStore, config: RankingConfig): number[] {
  if (token.length < 4 || DIGITS.test(token)) return [];
  const out: number[] = [];
  if (config.shorterNeighbors) {
    for (let length = token.length - 1; length >= 4 && out.length < MAX_NEIGHBORS; length -= 1) {
      const id = store.termId(token.slice(0, length));
      if (id >= 0) out.push(id);
    }
  }
  // the alphabetically first longer terms, as a sorted vocabulary scan would meet them
  // (`termsWithPrefix` visits in text order)
  const longest = token.length + 4;
  store.termsWithPrefix(token, (term, text) => {
    if (out.length < MAX_NEIGHBORS * 2 && text !== token && text.length <= longest) out.push(term);
  });
  return out;
}
