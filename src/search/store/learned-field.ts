/**
 * The learned field: words that sessions searched before calling a tool, with a weight each in
 * (0, 1). Kept apart from the postings (and from the text the model sees), so it is scored as its
 * own bounded step (`rank/learned-bonus.ts`) and an index without it ranks exactly as before.
 */

/** One learned word of a tool, as the search index takes it. */
export interface LearnedEntry {
  /** The stemmed word, as search normalises query words, or a whole query's key (`queryKey`). */
  word: string;
  /** Strength of the evidence, in (0, 1]; larger values are clipped to 1. */
  weight: number;
  /** Distinct requests that used the word (`LearnedWord.requests`); a word apart counts in search
   * from `MIN_REQUESTS` on. Absent: counted as enough. */
  requests?: number;
}

/** Distinct requests a learned word needs before it counts apart from its request's key: the
 * words of one request, however many sessions repeat it, are that request's context ("latest
 * release" in a request to comment on an issue), which its key already carries. */
export const MIN_REQUESTS = 2;

/** Tools kept per learned word, the strongest first. */
export const MAX_HOLDERS = 32;

/** The tools holding one learned word: how many in all, and the strongest `MAX_HOLDERS`. */
export interface LearnedHolders {
  count: number;
  list: { doc: number; name: string; weight: number; requests: number }[];
}

/** Learned words by tool name, looked up by stem at query time; watches the indexed tools, whose
 * ids it maps names to. */
export class LearnedField {
  private byName = new Map<string, readonly LearnedEntry[]>();
  /** stem → its holders; rebuilt when tools or words change. */
  private byWord: Map<string, LearnedHolders> | undefined;

  /** Number of tools with learned words. */
  get size(): number {
    return this.byName.size;
  }

  /** True when no tool has learned words (the search step is skipped). */
  get empty(): boolean {
    return this.byName.size === 0;
  }

  /** Replaces every learned word. */
  set(words: ReadonlyMap<string, readonly LearnedEntry[]>): void {
    const copy = new Map<string, readonly LearnedEntry[]>();
    for (const [name, entries] of words) {
      const kept = entries
        .filter((entry) => Number.isFinite(entry.weight) && entry.weight > 0 && entry.word !== "")
        .map((entry) => ({
          word: entry.word,
          weight: Math.min(1, entry.weight),
          ...(entry.requests === undefined ? {} : { requests: entry.requests }),
        }));
      if (kept.length > 0) copy.set(name, kept);
    }
    this.byName = copy;
    this.byWord = undefined;
  }

  /** The learned words of a tool (empty when none). */
  of(name: string): readonly LearnedEntry[] {
    return this.byName.get(name) ?? [];
  }

  /** A tool was added: ids moved, so the lookup is rebuilt on next use. */
  added(): void {
    if (this.byName.size > 0) this.byWord = undefined;
  }

  /** A tool was removed: as `added`. */
  removed(): void {
    this.added();
  }

  /** The documents holding learned word `stem`, with their weights. */
  lookup(stem: string, idOf: (name: string) => number): LearnedHolders | undefined {
    if (this.byWord === undefined) {
      const byWord = new Map<string, LearnedHolders>();
      for (const [name, entries] of this.byName) {
        const doc = idOf(name);
        if (doc < 0) continue;
        for (const entry of entries) {
          const holders = byWord.get(entry.word) ?? { count: 0, list: [] };
          holders.count += 1;
          const requests = entry.requests ?? MIN_REQUESTS;
          holders.list.push({ doc, name, weight: entry.weight, requests });
          byWord.set(entry.word, holders);
        }
      }
      // a word many tools learned says little about any one of them (its rarity factor is near
      // 0): only its strongest holders are kept, which bounds the step's cost per query word
      for (const { list } of byWord.values()) {
        if (list.length <= MAX_HOLDERS) continue;
        list.sort((a, b) => b.weight - a.weight || (a.name < b.name ? -1 : 1));
        list.length = MAX_HOLDERS;
      }
      this.byWord = byWord;
    }
    return this.byWord.get(stem);
  }
}
