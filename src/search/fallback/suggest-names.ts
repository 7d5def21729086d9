/**
 * Closest-name suggestions straight from the index: name words come from the posting store (name
 * terms by length and by prefix), so nothing is built on a miss and nothing extra is kept per tool.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import {
  bagDistance,
  boundedEditDistance,
  letterMask,
  maskDistance,
  NearestNames,
  nameSuffixStart,
  PREFIX_DISTANCE,
  PREFIX_WORDS,
  queryEditBound,
  setBagProbe,
  WHOLE_NAME_LIMIT,
  WORD_MATCH_PENALTY,
  wordEditBound,
} from "../../internal/index.js";
import { splitIdentifier } from "../../text/index.js";
import { NAME_TF_MASK } from "../store/fields.js";
import type { NameMasks } from "../store/name-masks.js";
import type { PostingStore } from "../store/posting-store.js";

/** Offers every live tool whose name contains term `term`, at `distance`. */
function offerNamesWith(
  store: PostingStore,
  tools: readonly (ToolDefinition | undefined)[],
  term: number,
  distance: number,
  nearest: NearestNames,
  accept: ((name: string) => boolean) | undefined,
): void {
  if ((store.nameFrequency[term] ?? 0) === 0) return;
  const list = store.postingList(term) as Uint32Array;
  const length = store.postingLength[term] ?? 0;
  const alive = store.alive;
  for (let index = 0; index < length; index += 2) {
    if (((list[index + 1] as number) & NAME_TF_MASK) === 0) continue;
    const doc = list[index] as number;
    if (alive[doc] !== 1) continue;
    const tool = tools[doc];
    if (tool) nearest.offer(tool.name, distance, accept);
  }
}

/** Whole names (and their part after the namespace) within `queryEditBound` edits of the query. */
function offerWholeNames(
  whole: string,
  tools: readonly (ToolDefinition | undefined)[],
  masks: NameMasks,
  nearest: NearestNames,
  accept: ((name: string) => boolean) | undefined,
): void {
  const bound = queryEditBound(whole.length);
  const wholeMask = letterMask(whole);
  setBagProbe(whole);
  for (let id = 0; id < tools.length; id += 1) {
    const size = masks.length(id);
    if (size === 0) continue;
    const cut = masks.cut(id);
    // length and letter masks first: most names fail those without reading a character
    let fullBound = Math.max(
      Math.abs(size - whole.length),
      maskDistance(wholeMask, masks.mask(id, 0)),
    );
    let suffixBound =
      cut > 0
        ? Math.max(Math.abs(size - cut - whole.length), maskDistance(wholeMask, masks.mask(id, 1)))
        : fullBound;
    if (Math.min(fullBound, suffixBound) > bound) continue;
    const tool = tools[id];
    if (tool === undefined) continue;
    const name = tool.name;
    if (fullBound <= bound) fullBound = Math.max(fullBound, bagDistance(name, 0, name.length));
    if (cut > 0 && suffixBound <= bound)
      suffixBound = Math.max(suffixBound, bagDistance(name, cut, name.length));
    else if (cut === 0) suffixBound = fullBound;
    const lower = Math.min(fullBound, suffixBound);
    if (lower > bound || !nearest.admits(name, lower)) continue;
    const lowerName = name.toLowerCase();
    let distance = bound + 1;
    if (fullBound <= bound) distance = boundedEditDistance(whole, lowerName, bound);
    if (cut > 0 && suffixBound <= bound && distance > suffixBound) {
      const suffix = lowerName.slice(nameSuffixStart(lowerName));
      distance = Math.min(distance, boundedEditDistance(whole, suffix, Math.min(bound, distance)));
    }
    if (distance <= bound) nearest.offer(name, distance, accept);
  }
}

/**
 * Up to `count` tool names nearest the query, nearest first, then by name: whole names (small
 * catalogs) by edit distance, and names holding a word near a query word (half an edit behind),
 * by the rules of internal/did-you-mean.ts, with the index's name words as candidates.
 */
export function suggestIndexedNames(
  store: PostingStore,
  tools: readonly (ToolDefinition | undefined)[],
  masks: NameMasks,
  query: string,
  count: number,
  accept?: (name: string) => boolean,
): string[] {
  const nearest = new NearestNames(count);
  const whole = query.toLowerCase().trim();
  if (whole.length >= 2 && store.liveCount <= WHOLE_NAME_LIMIT) {
    offerWholeNames(whole, tools, masks, nearest, accept);
  }
  for (const probe of splitIdentifier(query)) {
    if (probe.length < 2) continue;
    const bound = wordEditBound(probe.length);
    setBagProbe(probe);
    const probeMask = letterMask(probe);
    // every non-digit of the probe costs an edit against an all-digit word
    const nonDigits = probe.replace(/[0-9]/g, "").length;
    for (let length = probe.length - bound; length <= probe.length + bound; length += 1) {
      for (const digits of nonDigits <= bound ? [false, true] : [false]) {
        for (const term of store.namedTermsOfLength(length, digits)) {
          if (maskDistance(probeMask, store.namedMask[term] as number) > bound) continue;
          if ((store.nameFrequency[term] ?? 0) === 0) continue;
          const word = store.terms[term] as string;
          const lowerBound = bagDistance(word, 0, word.length);
          if (lowerBound > bound || lowerBound + WORD_MATCH_PENALTY > nearest.worst) continue;
          const distance = boundedEditDistance(probe, word, bound);
          if (distance <= bound)
            offerNamesWith(store, tools, term, distance + WORD_MATCH_PENALTY, nearest, accept);
        }
      }
    }
    // words the query word begins count as one edit away (the alphabetically first few)
    const started: [string, number][] = [];
    store.termsWithPrefix(probe, (term, text) => {
      if ((store.nameFrequency[term] ?? 0) > 0) started.push([text, term]);
    });
    started.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [, term] of started.slice(0, PREFIX_WORDS)) {
      offerNamesWith(store, tools, term, PREFIX_DISTANCE + WORD_MATCH_PENALTY, nearest, accept);
    }
  }
  return nearest.result();
}
