/** Turns the words of a query into weighted index terms: stemming, common-word weights, expansions. */

import { commonWordBand, STOP_WORDS, splitIdentifier, stem } from "../text/index.js";
import type { PostingStore } from "./posting-store.js";
import type { RankingConfig } from "./ranking-config.js";
import { synonymsOf } from "./synonyms.js";

/** One query token; hits are checked against groups for coverage and `+required`. */
export interface QueryGroup {
  token: string;
  weight: number;
  required: boolean;
}

/** One index term to score, tied to the group (bit) it came from. */
export interface QueryTerm {
  term: string;
  id: number;
  weight: number;
  group: number;
  expansion: boolean;
}

/** Groups and terms of a query. */
export interface QueryPlan {
  groups: QueryGroup[];
  terms: QueryTerm[];
  /** Stemmed tokens of the optional and required words, in order (for name-phrase matching). */
  stems: string[];
}

const MAX_GROUPS = 32;
const MAX_NEIGHBORS = 4;
const DIGITS = /^\p{N}+$/u;

/** The weight of a query word by how common it is in general English. */
export function wordWeight(word: string, config: RankingConfig): number {
  // numbers and single letters are mostly fragments of ids, dates and sizes in a request
  if (DIGITS.test(word)) return config.numberWeight;
  if (word.length === 1) return config.letterWeight;
  return config.bandWeights[commonWordBand(word)] ?? 1;
}

/** A vocabulary neighbour of a query word: its term id and its stem. */
interface Neighbor {
  id: number;
  stemmed: string;
}

/** Marks the term ids already planned for the current query (no per-query set). */
class TermMarks {
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

/** Most words whose neighbours are kept before the cache starts over. */
const CACHE_LIMIT = 4096;

/**
 * The prefix neighbours of query words, looked up once per word while the vocabulary stays the
 * same size (terms are only ever appended to it, so its size is its version).
 */
export class NeighborCache {
  private vocabulary = -1;
  private readonly byWord = new Map<string, readonly Neighbor[]>();
  private readonly seen = new TermMarks();

  /** The planned-term marks, cleared for a new query over `size` vocabulary terms. */
  termMarks(size: number): TermMarks {
    return this.seen.begin(size);
  }

  /** The neighbours of `token` in the store's vocabulary, as `prefixNeighbors` finds them. */
  get(token: string, store: PostingStore, config: RankingConfig): readonly Neighbor[] {
    if (store.terms.length !== this.vocabulary || this.byWord.size >= CACHE_LIMIT) {
      this.byWord.clear();
      this.vocabulary = store.terms.length;
    }
    let known = this.byWord.get(token);
    if (known === undefined) {
      known = prefixNeighbors(token, store, config).map((text) => ({
        id: store.termId(text),
        stemmed: stem(text),
      }));
      this.byWord.set(token, known);
    }
    return known;
  }
}

/** The index of the group whose stem is `stemmed`, or -1 (a query has at most 32 groups). */
function groupIndex(groups: readonly QueryGroup[], stemmed: string): number {
  for (let index = 0; index < groups.length; index += 1) {
    if ((groups[index] as QueryGroup).token === stemmed) return index;
  }
  return -1;
}

/** Adds one term to the plan unless it is unknown, in no live tool or already planned. */
function pushTerm(
  plan: QueryPlan,
  store: PostingStore,
  seen: TermMarks,
  id: number,
  weight: number,
  group: number,
  expansion: boolean,
): void {
  if (id < 0 || (store.docFrequency[id] ?? 0) === 0 || !seen.mark(id)) return;
  plan.terms.push({ term: store.terms[id] ?? "", id, weight, group, expansion });
}

/**
 * Files the tokens of one query word into groups (one per stem); the optional words' tokens that
 * are not stop words, with their stems, also go to `joinable` for the compound step.
 */
function addWord(
  plan: QueryPlan,
  surfaces: string[][],
  joinable: string[],
  word: string,
  isRequired: boolean,
  config: RankingConfig,
): void {
  const { groups, stems } = plan;
  for (const token of splitIdentifier(word)) {
    if (STOP_WORDS.has(token) && !isRequired) continue;
    const stemmed = stem(token);
    stems.push(stemmed);
    if (!isRequired) joinable.push(token, stemmed);
    const weight = isRequired ? 1 : wordWeight(token, config);
    const known = groupIndex(groups, stemmed);
    if (known >= 0) {
      const group = groups[known] as QueryGroup;
      group.weight = Math.max(group.weight, weight);
      group.required ||= isRequired;
      const surface = surfaces[known] as string[];
      if (!surface.includes(token)) surface.push(token);
      continue;
    }
    if (groups.length >= MAX_GROUPS) continue;
    groups.push({ token: stemmed, weight, required: isRequired });
    surfaces.push([token]);
  }
}

/** Builds the query plan over the store's vocabulary (`cache` saves repeated neighbour lookups). */
export function planQuery(
  words: readonly string[],
  required: readonly string[],
  store: PostingStore,
  config: RankingConfig,
  cache: NeighborCache = new NeighborCache(),
): QueryPlan {
  const plan: QueryPlan = { groups: [], terms: [], stems: [] };
  const { groups } = plan;
  const surfaces: string[][] = [];
  // token, stem, token, stem… of the optional words' tokens that are not stop words
  const joinable: string[] = [];
  for (const word of required) addWord(plan, surfaces, joinable, word, true, config);
  joinable.length = 0;
  for (const word of words) addWord(plan, surfaces, joinable, word, false, config);

  const seen = cache.termMarks(store.terms.length);
  // exact words first, so a term reached both ways keeps its strongest weight
  for (let index = 0; index < groups.length; index += 1) {
    const weight = (groups[index] as QueryGroup).weight;
    for (const surface of surfaces[index] as string[]) {
      pushTerm(plan, store, seen, store.termId(surface), weight, index, false);
    }
  }
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as QueryGroup;
    // other inflections of the same stem (Porter) count as the word, a little weaker
    for (const id of store.stemGroup(group.token)) {
      pushTerm(plan, store, seen, id, group.weight * config.stemWeight, index, false);
    }
  }
  // a word already found in a good share of the catalog does not lack matches: expanding it adds
  // noise, and the postings of common expansions are most of a common query's cost
  const common = commonGroups(plan.terms, groups.length, store, config.expansionMaxShare);
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as QueryGroup;
    if (group.required || common[index] === 1) continue;
    for (const synonym of synonymsOf(group.token)) {
      if (groupIndex(groups, synonym) >= 0) continue;
      for (const id of store.stemGroup(synonym)) {
        pushTerm(plan, store, seen, id, group.weight * config.synonymWeight, index, true);
      }
    }
    if (config.neighborWeight > 0) {
      for (const surface of surfaces[index] as string[]) {
        for (const neighbor of cache.get(surface, store, config)) {
          if (groupIndex(groups, neighbor.stemmed) >= 0) continue;
          const weight = group.weight * config.neighborWeight;
          pushTerm(plan, store, seen, neighbor.id, weight, index, true);
        }
      }
    }
  }
  if (config.compounds) addCompounds(plan, joinable, store, config, seen);
  return plan;
}

/** Name words a query writes apart or together (`screenshot` → `screen_shot`, `key vault` → `keyvault`). */
function addCompounds(
  plan: QueryPlan,
  joinable: readonly string[],
  store: PostingStore,
  config: RankingConfig,
  seen: TermMarks,
): void {
  const { groups } = plan;
  // one query word may be two words of a name (`screenshot` → `screen_shot`)
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as QueryGroup;
    pushTerm(plan, store, seen, store.termId(`~${group.token}`), group.weight, index, false);
  }
  // two adjacent query words may be one word in a name (`key vault` → `keyvault`)
  for (let at = 2; at < joinable.length; at += 2) {
    const group = groupIndex(groups, joinable[at - 1] as string);
    const second = groupIndex(groups, joinable[at + 1] as string);
    if (group < 0 || second < 0) continue;
    const joined = `${joinable[at - 2]}${joinable[at]}`;
    const weight = Math.min(
      (groups[group] as QueryGroup).weight,
      (groups[second] as QueryGroup).weight,
    );
    const joinedStem = stem(joined);
    // adjacent query words that are adjacent words of a name: a phrase match
    const phrase = store.termId(`~${joinedStem}`);
    pushTerm(plan, store, seen, phrase, weight * config.phraseWeight, group, false);
    pushTerm(plan, store, seen, store.termId(joined), weight, group, false);
    for (const id of store.stemGroup(joinedStem)) {
      pushTerm(plan, store, seen, id, weight * config.stemWeight, group, false);
    }
  }
}

/** Marks (1) the groups whose own terms occur in at least `share` of the live tools. */
function commonGroups(
  terms: readonly QueryTerm[],
  groupCount: number,
  store: PostingStore,
  share: number,
): Uint8Array {
  const marks = new Uint8Array(groupCount);
  const limit = share * store.liveCount;
  for (const term of terms) {
    if ((store.docFrequency[term.id] ?? 0) >= limit) marks[term.group] = 1;
  }
  return marks;
}

/** Vocabulary terms that extend the stem or that the stem extends (at least 4 shared letters). */
function prefixNeighbors(token: string, store: PostingStore, config: RankingConfig): string[] {
  if (token.length < 4 || DIGITS.test(token)) return [];
  const out: string[] = [];
  if (config.shorterNeighbors) {
    for (let length = token.length - 1; length >= 4 && out.length < MAX_NEIGHBORS; length -= 1) {
      const prefix = token.slice(0, length);
      if (store.termId(prefix) >= 0) out.push(prefix);
    }
  }
  // the alphabetically first longer terms, as a sorted vocabulary scan would meet them
  const longer: string[] = [];
  store.termsWithPrefix(token, (_term, text) => {
    if (text !== token && text.length <= token.length + 4) longer.push(text);
  });
  longer.sort();
  for (const term of longer) {
    if (out.length >= MAX_NEIGHBORS * 2) break;
    out.push(term);
  }
  return out;
}
