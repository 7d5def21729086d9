/** Turns the words of a query into weighted index terms: stemming, common-word weights, expansions. */

import { commonWordBand, STOP_WORDS, splitIdentifier, stem } from "../../text/index.js";
import type { RankingConfig } from "../ranking-config.js";
import type { PostingStore } from "../store/posting-store.js";
import { DIGITS, NeighborCache, type TermMarks } from "./plan-cache.js";
import { synonymsOf } from "./synonyms.js";

export { NeighborCache } from "./plan-cache.js";

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

/** Groups a plan scores: coverage and `+required` checks keep one bit per group in a 32-bit mask. */
const MAX_GROUPS = 32;
/** Distinct words a long request may offer before the most informative 32 are chosen (bounds the work on a hostile query). */
const MAX_CANDIDATE_GROUPS = 256;

/** The weight of a query word by how common it is in general English. */
export function wordWeight(word: string, config: RankingConfig): number {
  // numbers and single letters are mostly fragments of ids, dates and sizes in a request
  if (DIGITS.test(word)) return config.numberWeight;
  if (word.length === 1) return config.letterWeight;
  return config.bandWeights[commonWordBand(word)] ?? 1;
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

/** Letters joined by hyphens (`to-do`, `sign-in`): names often write them as one word. */
const HYPHENATED = /^[a-z]+(?:-[a-z]+){1,2}$/i;

/**
 * The tokens of one query word. A hyphenated word made only of stop words and letters (`to-do`)
 * would leave nothing to search for: it gives its parts written together instead when a tool
 * uses that spelling (`todo`). Other hyphenated words (`non-profit`, `e-mail`) reach the joined
 * spelling through the compound step.
 */
function wordTokens(word: string, known: (token: string) => boolean): string[] {
  const tokens = splitIdentifier(word);
  if (tokens.length < 2 || !HYPHENATED.test(word)) return tokens;
  if (!tokens.every((token) => token.length === 1 || STOP_WORDS.has(token))) return tokens;
  const joined = tokens.join("");
  return known(joined) ? [joined] : tokens;
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
  known: (token: string) => boolean,
): void {
  const { groups, stems } = plan;
  for (const token of wordTokens(word, known)) {
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
    if (groups.length >= MAX_CANDIDATE_GROUPS) continue;
    groups.push({ token: stemmed, weight, required: isRequired });
    surfaces.push([token]);
  }
}

/**
 * Cuts a long request to the 32 groups that say most about the task: required words first, then
 * by weight × rarity in the catalog; words no tool contains go last. A request's later parts
 * ("… Lastly, the packaging material of …") used to be dropped simply for coming late.
 */
function keepInformative(
  plan: QueryPlan,
  surfaces: string[][],
  store: PostingStore,
  cache: NeighborCache,
): void {
  const { groups } = plan;
  const live = Math.max(store.liveCount, 1);
  const value = groups.map((group, index) => {
    if (group.required) return Number.POSITIVE_INFINITY;
    let frequency = 0;
    for (const surface of surfaces[index] as string[]) {
      const id = cache.termId(surface, store);
      if (id >= 0) frequency = Math.max(frequency, store.docFrequency[id] ?? 0);
    }
    for (const id of cache.stemGroup(group.token, store)) {
      frequency = Math.max(frequency, store.docFrequency[id] ?? 0);
    }
    return frequency === 0 ? -1 : group.weight * Math.log(1 + live / frequency);
  });
  const kept = groups
    .map((_, index) => index)
    .sort((a, b) => (value[b] as number) - (value[a] as number) || a - b)
    .slice(0, MAX_GROUPS)
    .sort((a, b) => a - b);
  plan.groups = kept.map((index) => groups[index] as QueryGroup);
  const keptSurfaces = kept.map((index) => surfaces[index] as string[]);
  surfaces.length = 0;
  surfaces.push(...keptSurfaces);
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
  const surfaces: string[][] = [];
  // token, stem, token, stem… of the optional words' tokens that are not stop words
  const joinable: string[] = [];
  const known = (token: string) => cache.stemGroup(stem(token), store).length > 0;
  for (const word of required) addWord(plan, surfaces, joinable, word, true, config, known);
  joinable.length = 0;
  for (const word of words) addWord(plan, surfaces, joinable, word, false, config, known);
  if (plan.groups.length > MAX_GROUPS) keepInformative(plan, surfaces, store, cache);
  const { groups } = plan;

  const seen = cache.termMarks(store.terms.length);
  // exact words first, so a term reached both ways keeps its strongest weight
  for (let index = 0; index < groups.length; index += 1) {
    const weight = (groups[index] as QueryGroup).weight;
    for (const surface of surfaces[index] as string[]) {
      pushTerm(plan, store, seen, cache.termId(surface, store), weight, index, false);
    }
  }
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as QueryGroup;
    // other inflections of the same stem (Porter) count as the word, a little weaker
    for (const id of cache.stemGroup(group.token, store)) {
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
      for (const id of cache.stemGroup(synonym, store)) {
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
  if (config.compounds) addCompounds(plan, joinable, store, config, seen, cache);
  return plan;
}

/** Name words a query writes apart or together (`screenshot` → `screen_shot`, `key vault` → `keyvault`). */
function addCompounds(
  plan: QueryPlan,
  joinable: readonly string[],
  store: PostingStore,
  config: RankingConfig,
  seen: TermMarks,
  cache: NeighborCache,
): void {
  const { groups } = plan;
  // one query word may be two words of a name (`screenshot` → `screen_shot`)
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as QueryGroup;
    const id = cache.compoundId(group.token, store);
    pushTerm(plan, store, seen, id, group.weight, index, false);
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
    // a pair of words seldom recurs across queries (and is seldom a term): the store is asked
    // directly, as caching every pair grew the cache by three entries that were never read again
    const phrase = store.termId(`~${joinedStem}`);
    // adjacent query words that are adjacent words of a name: a phrase match
    pushTerm(plan, store, seen, phrase, weight * config.phraseWeight, group, false);
    pushTerm(plan, store, seen, store.termId(joined), weight, group, false);
    for (const id of store.stemGroup(joinedStem)) {
      pushTerm(plan, store, seen, id, weight * config.stemWeight, group, false);
    }
  }
}

/** Tools a word must occur in, whatever the share, before it counts as common. */
const MIN_COMMON_TOOLS = 20;

/** Marks (1) the groups whose own terms occur in at least `share` of the live tools (and 20). */
function commonGroups(
  terms: readonly QueryTerm[],
  groupCount: number,
  store: PostingStore,
  share: number,
): Uint8Array {
  const marks = new Uint8Array(groupCount);
  // in a small catalog every matching word would pass a share: a floor keeps their expansions
  const limit = Math.max(share * store.liveCount, MIN_COMMON_TOOLS);
  for (const term of terms) {
    if ((store.docFrequency[term.id] ?? 0) >= limit) marks[term.group] = 1;
  }
  return marks;
}
