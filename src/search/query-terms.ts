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

/** Most words whose neighbours are kept before the cache starts over. */
const CACHE_LIMIT = 4096;

/**
 * The prefix neighbours of query words, looked up once per word while the vocabulary stays the
 * same size (terms are only ever appended to it, so its size is its version).
 */
export class NeighborCache {
  private vocabulary = -1;
  private readonly byWord = new Map<string, readonly Neighbor[]>();

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

/** Builds the query plan over the store's vocabulary (`cache` saves repeated neighbour lookups). */
export function planQuery(
  words: readonly string[],
  required: readonly string[],
  store: PostingStore,
  config: RankingConfig,
  cache: NeighborCache = new NeighborCache(),
): QueryPlan {
  const groups: QueryGroup[] = [];
  const surfaces: string[][] = [];
  const terms: QueryTerm[] = [];
  const stems: string[] = [];
  const groupOfStem = new Map<string, number>();
  const add = (word: string, isRequired: boolean) => {
    for (const token of splitIdentifier(word)) {
      if (STOP_WORDS.has(token) && !isRequired) continue;
      const stemmed = stem(token);
      stems.push(stemmed);
      const weight = isRequired ? 1 : wordWeight(token, config);
      const known = groupOfStem.get(stemmed);
      if (known !== undefined) {
        const group = groups[known];
        if (group) {
          group.weight = Math.max(group.weight, weight);
          group.required ||= isRequired;
          if (!surfaces[known]?.includes(token)) surfaces[known]?.push(token);
        }
        continue;
      }
      if (groups.length >= MAX_GROUPS) continue;
      groupOfStem.set(stemmed, groups.length);
      groups.push({ token: stemmed, weight, required: isRequired });
      surfaces.push([token]);
    }
  };
  for (const word of required) add(word, true);
  for (const word of words) add(word, false);

  const seen = new Set<number>();
  const pushId = (id: number, weight: number, group: number, expansion: boolean) => {
    if (id < 0 || (store.docFrequency[id] ?? 0) === 0 || seen.has(id)) return;
    seen.add(id);
    terms.push({ term: store.terms[id] ?? "", id, weight, group, expansion });
  };
  // exact words first, so a term reached both ways keeps its strongest weight
  groups.forEach((group, index) => {
    for (const surface of surfaces[index] ?? [])
      pushId(store.termId(surface), group.weight, index, false);
  });
  groups.forEach((group, index) => {
    // other inflections of the same stem (Porter) count as the word, a little weaker
    for (const id of store.stemGroup(group.token)) {
      pushId(id, group.weight * config.stemWeight, index, false);
    }
  });
  // a word already found in a good share of the catalog does not lack matches: expanding it adds
  // noise, and the postings of common expansions are most of a common query's cost
  const common = commonGroups(terms, groups.length, store, config.expansionMaxShare);
  groups.forEach((group, index) => {
    if (group.required || common[index] === 1) return;
    for (const synonym of synonymsOf(group.token)) {
      if (groupOfStem.has(synonym)) continue;
      for (const id of store.stemGroup(synonym)) {
        pushId(id, group.weight * config.synonymWeight, index, true);
      }
    }
    if (config.neighborWeight > 0) {
      for (const surface of surfaces[index] ?? []) {
        for (const neighbor of cache.get(surface, store, config)) {
          if (groupOfStem.has(neighbor.stemmed)) continue;
          pushId(neighbor.id, group.weight * config.neighborWeight, index, true);
        }
      }
    }
  });
  if (config.compounds) {
    // one query word may be two words of a name (`screenshot` → `screen_shot`)
    groups.forEach((group, index) => {
      pushId(store.termId(`~${group.token}`), group.weight, index, false);
    });
    // two adjacent query words may be one word in a name (`key vault` → `keyvault`)
    const tokens = words.flatMap((word) => splitIdentifier(word)).filter((t) => !STOP_WORDS.has(t));
    for (let index = 1; index < tokens.length; index += 1) {
      const joined = `${tokens[index - 1]}${tokens[index]}`;
      const group = groupOfStem.get(stem(tokens[index - 1] ?? ""));
      const second = groupOfStem.get(stem(tokens[index] ?? ""));
      if (group === undefined || second === undefined) continue;
      const weight = Math.min(groups[group]?.weight ?? 1, groups[second]?.weight ?? 1);
      // adjacent query words that are adjacent words of a name: a phrase match
      pushId(store.termId(`~${stem(joined)}`), weight * config.phraseWeight, group, false);
      pushId(store.termId(joined), weight, group, false);
      for (const id of store.stemGroup(stem(joined)))
        pushId(id, weight * config.stemWeight, group, false);
    }
  }
  return { groups, terms, stems };
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
