/** The data of a search index and its upkeep: add, bulk add, remove, replace (queries: ToolSearchIndex). */

import type { ToolDefinition } from "../catalog/index.js";
import { splitIdentifier } from "../text/index.js";
import { checkTool, checkTools } from "./check-tools.js";
import { IdsByKey } from "./ids-by-key.js";
import { PendingPostings } from "./pending-postings.js";
import { phraseKey } from "./phrase-key.js";
import { PooledIds } from "./pooled-ids.js";
import { PostingStore } from "./posting-store.js";
import { PrerequisiteIndex } from "./prerequisites.js";
import { type RankingConfig, resolveRanking } from "./ranking-config.js";
import { nameSuffix } from "./suggest.js";
import { NameMasks } from "./suggest-names.js";
import { type EncodedTool, TermEncoder } from "./term-encoder.js";
import type { ServerSummary } from "./types.js";

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
  protected readonly idByName = new Map<string, number>();
  protected readonly idsByLowerName = new IdsByKey();
  protected readonly idsBySuffix = new PooledIds();
  protected readonly idsByPhrase = new PooledIds();
  protected readonly encoder: TermEncoder;
  protected sortedNames: string[] | undefined;
  /** Tools per server, kept up to date on add and remove (the no-match summary reads it). */
  protected readonly serverCounts = new Map<string, number>();
  protected readonly nameMasks = new NameMasks();
  protected serverSummary: ServerSummary[] | undefined;
  protected readonly prerequisites = new PrerequisiteIndex(this.tools);

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
    return this.idByName.size;
  }

  /** Tests whether a tool with this exact name is indexed. */
  has(name: string): boolean {
    return this.idByName.has(name);
  }

  /** The indexed tool with this exact name. */
  get(name: string): ToolDefinition | undefined {
    const id = this.idByName.get(name);
    return id === undefined ? undefined : this.tools[id];
  }

  /** Adds a tool; a tool with the same name is replaced. */
  add(tool: ToolDefinition): void {
    checkTool(tool, "add");
    if (this.idByName.has(tool.name)) this.remove(tool.name);
    this.register(tool, this.store.addEncoded(this.encode(tool)));
  }

  /** Adds many tools as `add` would one by one, writing postings in bulk; checks them all first. */
  addAll(tools: readonly ToolDefinition[]): void {
    checkTools(tools);
    const pending = new PendingPostings();
    try {
      for (const tool of tools) {
        const known = this.idByName.has(tool.name);
        if (known || pending.full) this.store.writePending(pending);
        if (known) this.add(tool);
        else this.register(tool, this.store.addEncoded(this.encode(tool), pending));
      }
    } finally {
      this.store.writePending(pending);
    }
  }

  private encode(tool: ToolDefinition): EncodedTool {
    return this.encoder.encode(tool, this.config.compounds);
  }

  private register(tool: ToolDefinition, id: number): void {
    this.tools[id] = tool;
    this.prerequisites.added(id, tool);
    this.nameMasks.set(id, tool.name);
    this.idByName.set(tool.name, id);
    const lower = tool.name.toLowerCase();
    this.idsByLowerName.add(lower, id);
    this.idsBySuffix.add(nameSuffix(lower), id);
    const phrase = this.encoder.namePhrase() ?? phraseKey(splitIdentifier(nameSuffix(tool.name)));
    this.idsByPhrase.add(phrase, id);
    this.sortedNames = undefined;
    this.countServer(tool.server, 1);
  }

  /** Removes a tool by name; returns false when it was not indexed. */
  remove(name: string): boolean {
    const id = this.idByName.get(name);
    if (id === undefined) return false;
    const tool = this.tools[id] as ToolDefinition;
    this.store.remove(id, this.encode(tool));
    this.nameMasks.clear(id);
    this.prerequisites.removed(id, tool);
    this.countServer(tool.server, -1);
    this.tools[id] = undefined;
    this.idByName.delete(name);
    const lower = name.toLowerCase();
    this.idsByLowerName.delete(lower, id);
    this.idsBySuffix.delete(nameSuffix(lower), id);
    this.idsByPhrase.delete(phraseKey(splitIdentifier(nameSuffix(name))), id);
    this.sortedNames = undefined;
    return true;
  }

  private countServer(server: string | undefined, change: number): void {
    if (server === undefined || server === "") return;
    const count = (this.serverCounts.get(server) ?? 0) + change;
    if (count > 0) this.serverCounts.set(server, count);
    else this.serverCounts.delete(server);
    this.serverSummary = undefined;
  }

  /** Replaces (or adds) the tool with the same name. */
  replace(tool: ToolDefinition): void {
    this.add(tool);
  }
}
