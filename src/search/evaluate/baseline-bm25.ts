/**
 * A plain BM25 baseline for benchmarks only, kept apart from the tuned engine on purpose: k1 1.2,
 * b 0.75, no stemming, stop words kept, one bag of words per tool (name + description + parameter
 * names), tokens from `splitIdentifier` (separators, camelCase, digits, lowercase). It answers
 * "how much does the real engine add over textbook BM25?".
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier } from "../../text/index.js";

const K1 = 1.2;
const B = 0.75;

function bagOfWords(tool: ToolDefinition): string[] {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  const parameterNames =
    properties !== null && typeof properties === "object" ? Object.keys(properties) : [];
  return splitIdentifier([tool.name, tool.description ?? "", ...parameterNames].join(" "));
}

/** Textbook BM25 over name + description + parameter names; `rank` returns the top k names. */
export class BaselineBM25 {
  private readonly names: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private totalLength = 0;

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) {
      const doc = this.names.length;
      const words = bagOfWords(tool);
      this.names.push(tool.name);
      this.lengths.push(words.length);
      this.totalLength += words.length;
      const counts = new Map<string, number>();
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const [word, tf] of counts) {
        const list = this.postings.get(word) ?? [];
        list.push({ doc, tf });
        this.postings.set(word, list);
      }
    }
  }

  /** The names of the top `k` tools by BM25 score (ties by name). */
  rank(query: string, k: number): string[] {
    const n = this.names.length;
    const average = n === 0 ? 1 : this.totalLength / n;
    const scores = new Map<number, number>();
    for (const word of new Set(splitIdentifier(query))) {
      const list = this.postings.get(word);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = 1 - B + (B * (this.lengths[doc] ?? 0)) / average;
        const value = (idf * tf * (K1 + 1)) / (tf + K1 * norm);
        scores.set(doc, (scores.get(doc) ?? 0) + value);
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || ((this.names[a[0]] ?? "") < (this.names[b[0]] ?? "") ? -1 : 1))
      .slice(0, k)
      .map(([doc]) => this.names[doc] ?? "");
  }
}
