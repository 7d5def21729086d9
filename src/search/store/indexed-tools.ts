/** The data of a search index and its upkeep: add, bulk add, remove, replace (queries: ToolSearchIndex). */

import type { ToolDefinition } from "../../catalog/index.js";
import { NameMasks } from "../fallback/suggest-names.js";
import { MentionIndex } from "../rank/mentions.js";
import { PrerequisiteIndex } from "../rank/prerequisites.js";
import { type RankingConfig, resolveRanking } from "../ranking-config.js";
import type { ServerSummary } from "../types.js";
import { checkTool, checkTools } from "./check-tools.js";
import { type LearnedEntry, LearnedField } from "./learned-field.js";
import { NameLookup } from "./name-lookup.js";
import { PendingPostings } from "./pending-postings.js";
import { PostingStore } from "./posting-store.js";
import { type EncodedTool, TermEncoder } from "./term-encoder.js";

/** Options of a search index. */
export interface SearchIndexOptions {
  /** Overrides of the ranking constants (for tuning; the defaults are measured). */
  ranking?: Partial<RankingConfig>;
}

/** The indexed tools, their postings and name lookups, kept up to date tool by tool. */
export class IndexedTools {
  protected readonly config: RankingConfig;
  protected readonly store: PostingStore;
  protected readonly tools: (ToolDefinition | undefined)[] = [];
  /** Name lookups by id; keys are rebuilt from `tools` to confirm hits. */
  protected readonly lookup = new NameLookup(this.tools);
  protected readonly encoder: TermEncoder;
  protected sortedNames: string[] | undefined;
  /** Tools per server, kept up to date on add and remove (the no-match summary reads it). */
  protected readonly serverCounts = new Map<string, number>();
  protected readonly nameMasks = new NameMasks();
  protected serverSummary: ServerSummary[] | undefined;
  protected readonly prerequisites = new PrerequisiteIndex(this.tools);
  protected readonly mentions = new MentionIndex(this.tools, (name) => this.lookup.idOf(name));
  /** Words sessions searched before calling each tool (`learned-field.ts`); empty unless set. */
  protected readonly learned = new LearnedField();

  constructor(options?: SearchIndexOptions) {
    this.config = resolveRanking(options?.ranking);
    this.store = new PostingStore({
      weights: this.config.fieldWeights,
      b: this.config.fieldB,
      k1: this.config.k1,
    });
    this.encoder = new TermEncoder(this.store);
  }

  /** Number of tools in the index. */
  get size(): number {
    return this.lookup.size;
  }

  /** Tests whether a tool with this exact name is indexed. */
  has(name: string): boolean {
    return this.lookup.idOf(name) >= 0;
  }

  /** The indexed tool with this exact name. */
  get(name: string): ToolDefinition | undefined {
    const id = this.lookup.idOf(name);
    return id < 0 ? undefined : this.tools[id];
  }

  /** The id of the tool with this exact name, or -1. */
  protected idOf(name: string): number {
    return this.lookup.idOf(name);
  }

  /** The names of the indexed tools, in no particular order. */
  protected liveNames(): string[] {
    const names: string[] = [];
    for (const tool of this.tools) if (tool !== undefined) names.push(tool.name);
    return names;
  }

  /** Adds a tool; a tool with the same name is replaced. */
  add(tool: ToolDefinition): void {
    checkTool(tool, "add");
    if (this.has(tool.name)) this.remove(tool.name);
    this.register(tool, this.store.addEncoded(this.encode(tool)));
  }

  /** Adds many tools as `add` would one by one, writing postings in bulk; checks them all first. */
  addAll(tools: readonly ToolDefinition[]): void {
    checkTools(tools);
    const pending = new PendingPostings();
    this.store.reserveDocs(tools.length);
    this.nameMasks.reserve(this.store.nextId + tools.length);
    this.lookup.reserve(tools.length);
    try {
      for (const tool of tools) {
        const known = this.has(tool.name);
        if (known) this.store.writePending(pending);
        if (known) this.add(tool);
        else this.register(tool, this.store.addEncoded(this.encode(tool), pending));
      }
    } finally {
      // a batch as big as the rest of the index: all lists are rewritten at their exact sizes
      this.store.writePending(pending, tools.length * 2 >= this.store.liveCount);
    }
  }

  private encode(tool: ToolDefinition): EncodedTool {
    return this.encoder.encode(tool, this.config.compounds);
  }

  private register(tool: ToolDefinition, id: number): void {
    this.tools[id] = tool;
    this.prerequisites.added(id, tool);
    const cut = this.encoder.nameCut;
    if (cut >= 0) this.nameMasks.set(id, tool.name, cut);
    else this.nameMasks.set(id, tool.name);
    this.lookup.add(id, tool.name, this.encoder.namePhraseHash(), cut);
    this.sortedNames = undefined;
    this.learned.changed();
    this.countServer(tool.server, 1);
  }

  /** Removes a tool by name; returns false when it was not indexed. */
  remove(name: string): boolean {
    const id = this.lookup.idOf(name);
    if (id < 0) return false;
    const tool = this.tools[id] as ToolDefinition;
    this.store.remove(id, this.encode(tool));
    this.nameMasks.clear(id);
    this.prerequisites.removed(id, tool);
    this.mentions.removed(id);
    this.countServer(tool.server, -1);
    this.tools[id] = undefined;
    this.lookup.delete(id);
    this.sortedNames = undefined;
    this.learned.changed();
    return true;
  }

  private countServer(server: string | undefined, change: number): void {
    if (server === undefined || server === "") return;
    const count = (this.serverCounts.get(server) ?? 0) + change;
    if (count > 0) this.serverCounts.set(server, count);
    else this.serverCounts.delete(server);
    this.serverSummary = undefined;
  }

  /**
   * Sets the learned field: by tool name, stemmed words with a weight in (0, 1] each (usually
   * `UsageEvidence.learnedWords()`); replaces what was set before. An empty map turns it off.
   */
  setLearned(words: ReadonlyMap<string, readonly LearnedEntry[]>): void {
    this.learned.set(words);
  }

  /** The learned words of a tool (empty when it has none). */
  learnedWords(name: string): readonly LearnedEntry[] {
    return this.learned.of(name);
  }

  /** Replaces (or adds) the tool with the same name. */
  replace(tool: ToolDefinition): void {
    this.add(tool);
  }
}
