/** Closest-name suggestions (bounded Damerau-Levenshtein) and per-server summaries for no-match results. */

import type { ToolDefinition } from "../../catalog/index.js";
import { boundedEditDistance, letterMask, maskDistance, nameSuffix } from "../../internal/index.js";
import { splitIdentifier } from "../../text/index.js";
import type { ServerSummary } from "../types.js";

/** Finds the tool names closest to a query; built once per catalog version, since it indexes name words. */
export class NameSuggester {
  private readonly namesByWord = new Map<string, string[]>();
  private readonly wordsByLength = new Map<number, string[]>();
  private readonly letterMasks = new Map<string, number>();
  private readonly sortedWords: string[];

  constructor(private readonly names: readonly string[]) {
    for (const name of names) {
      for (const word of new Set(splitIdentifier(name))) {
        const list = this.namesByWord.get(word);
        if (list) list.push(name);
        else this.namesByWord.set(word, [name]);
      }
    }
    this.sortedWords = [...this.namesByWord.keys()].sort();
    for (const word of this.sortedWords) {
      const bucket = this.wordsByLength.get(word.length);
      if (bucket) bucket.push(word);
      else this.wordsByLength.set(word.length, [word]);
      this.letterMasks.set(word, letterMask(word));
    }
  }

  /** Name words within `bound` edits of the probe (only lengths that can qualify are scanned), and words it begins. */
  private nearWords(probe: string, bound: number): [string, number][] {
    const out: [string, number][] = [];
    const probeMask = letterMask(probe);
    for (let length = probe.length - bound; length <= probe.length + bound; length += 1) {
      for (const word of this.wordsByLength.get(length) ?? []) {
        // one edit changes which letters occur by at most two, a cheap lower bound
        if (maskDistance(probeMask, this.letterMasks.get(word) ?? 0) > bound) continue;
        const distance = boundedEditDistance(probe, word, bound);
        if (distance <= bound) out.push([word, distance]);
      }
    }
    let low = 0;
    let high = this.sortedWords.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.sortedWords[middle] ?? "") < probe) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < this.sortedWords.length && index < low + 50; index += 1) {
      const word = this.sortedWords[index] ?? "";
      if (!word.startsWith(probe)) break;
      out.push([word, 1]);
    }
    return out;
  }

  /** Up to `count` names nearest the query (or one of its words), nearest first, then by name. */
  closest(query: string, count = 5, accept?: (name: string) => boolean): string[] {
    const whole = query.toLowerCase().trim();
    const words = splitIdentifier(query).filter((word) => word.length >= 2);
    const best = new Map<string, number>();
    const offer = (name: string, distance: number) => {
      if (accept && !accept(name)) return;
      const known = best.get(name);
      if (known === undefined || distance < known) best.set(name, distance);
    };
    // whole-name comparison costs one edit distance per tool, so only small catalogs get it
    if (whole.length >= 2 && this.names.length <= 5_000) {
      const bound = Math.max(2, Math.ceil(whole.length / 3));
      for (const name of this.names) {
        const lower = name.toLowerCase();
        const suffix = nameSuffix(lower);
        const distance = Math.min(
          boundedEditDistance(whole, lower, bound),
          boundedEditDistance(whole, suffix, bound),
        );
        if (distance <= bound) offer(name, distance);
      }
    }
    for (const probe of words) {
      const bound = Math.max(1, Math.floor(probe.length / 3));
      for (const [word, distance] of this.nearWords(probe, bound)) {
        // a word match ranks after a whole-name match at the same distance
        for (const name of this.namesByWord.get(word) ?? []) offer(name, distance + 0.5);
      }
    }
    return [...best]
      .sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1))
      .slice(0, count)
      .map(([name]) => name);
  }
}

/** Up to `count` tool names closest to the query (or to one of its words), nearest first. */
export function closestNames(query: string, names: readonly string[], count = 5): string[] {
  return new NameSuggester(names).closest(query, count);
}

/** How many tools each server offers, by server name; tools without a server are left out. */
export function summarizeServers(tools: Iterable<ToolDefinition>): ServerSummary[] {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    if (tool.server === undefined || tool.server === "") continue;
    counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  }
  return [...counts]
    .map(([server, tools]) => ({ server, tools }))
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
}
