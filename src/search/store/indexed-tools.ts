/**
 * The data of a search index and its upkeep: add, bulk add, remove, replace. It knows nothing of
 * queries or ranking: `ToolSearchIndex` composes it with the planner, the scorer and the fallbacks,
 * and parts that keep their own per-tool tables (prerequisites, mentions) `watch` it.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { checkTool, checkTools } from "./check-tools.js";
import type { EncodedTool } from "./encoded-tool.js";
import { NameLookup, readNameLookup, type SavedNameLookup } from "./name-lookup.js";
import { NameMasks } from "./name-masks.js";
import { PendingPostings } from "./pending-postings.js";
import { type FieldParameters, PostingStore, readStore, type SavedStore } from "./posting-store.js";
import { SnapshotProblem, type SnapshotReader, type SnapshotWriter } from "./snapshot-format.js";

/** The indexed tools as a snapshot holds them, checked and ready to restore. */
export interface SavedTools {
  store: SavedStore;
  nameMasks: Int32Array<ArrayBuffer>;
  /** The id of each live tool, ascending: the k-th id belongs to the k-th tool given. */
  ids: Int32Array<ArrayBuffer>;
  /** The name tables as they are (filed with the vocabulary's hash basis). */
  names: SavedNameLookup;
}

import { TermEncoder } from "./term-encoder.js";

/** A part that keeps its own table per tool, told of every tool added and removed. */
export interface ToolWatcher {
  added?(id: number, tool: ToolDefinition): void;
  removed(id: number, tool: ToolDefinition): void;
  /**
   * True for a part whose tables a snapshot carries: a restore does not tell it of each tool
   * (`added`), the index hands it the snapshot's tables instead.
   */
  readonly restoresFromSnapshot?: boolean;
}

/** How the indexed tools are written: BM25F field parameters, and whether names get compounds. */
export interface IndexedToolsOptions {
  fields: FieldParameters;
  compounds: boolean;
}

/** The indexed tools, their postings and name lookups, kept up to date tool by tool. */
export class IndexedTools {
  readonly store: PostingStore;
  /** Tools by id; removed tools leave `undefined` until the id is reused. */
  readonly tools: (ToolDefinition | undefined)[] = [];
  /** Name lookups by id; keys are rebuilt from `tools` to confirm hits. */
  readonly lookup = new NameLookup(this.tools);
  /** Per tool id: name masks for "did you mean". */
  readonly nameMasks = new NameMasks();
  /** Tools per server, kept up to date on add and remove (the no-match summary reads it). */
  readonly serverCounts = new Map<string, number>();
  private readonly encoder: TermEncoder;
  private readonly compounds: boolean;
  private readonly watchers: ToolWatcher[] = [];
  private sortedNames: string[] | undefined;
  private serverSummary: { server: string; tools: number }[] | undefined;

  constructor(options: IndexedToolsOptions) {
    this.store = new PostingStore(options.fields);
    this.compounds = options.compounds;
    this.encoder = new TermEncoder(this.store);
  }

  /** Tells `watcher` of every tool added and removed from now on. */
  watch(watcher: ToolWatcher): void {
    this.watchers.push(watcher);
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

  /** The names of the indexed tools, sorted (cached until the next change). */
  names(): string[] {
    if (this.sortedNames === undefined) {
      const names: string[] = [];
      for (const tool of this.tools) if (tool !== undefined) names.push(tool.name);
      this.sortedNames = names.sort();
    }
    return this.sortedNames;
  }

  /** How many tools each server offers, by server name (a fresh copy each call). */
  servers(): { server: string; tools: number }[] {
    this.serverSummary ??= [...this.serverCounts]
      .map(([server, tools]) => ({ server, tools }))
      .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
    return this.serverSummary.map((entry) => ({ ...entry }));
  }

  /** The live tools in id order: the order a snapshot lists them in (see `save`). */
  liveTools(): ToolDefinition[] {
    const live: ToolDefinition[] = [];
    for (const tool of this.tools) if (tool !== undefined) live.push(tool);
    return live;
  }

  /** The ids of the live tools, ascending (the order of `liveTools`). */
  liveIds(): number[] {
    const ids: number[] = [];
    for (let id = 0; id < this.store.nextId; id += 1)
      if (this.tools[id] !== undefined) ids.push(id);
    return ids;
  }

  /** Writes the index data into a snapshot; the tools themselves are not written. */
  save(writer: SnapshotWriter): void {
    this.store.save(writer);
    const nextId = this.store.nextId;
    writer.array("nameMasks", "i32", this.nameMasks.saved(nextId));
    writer.array("toolIds", "i32", Int32Array.from(this.liveIds()));
    // the name tables as they are: re-filing them meant splitting, stemming and hashing every name
    this.lookup.save(writer, nextId);
  }

  /**
   * Fills an empty index from a snapshot checked by `readTools`, given the tools it was saved
   * from in `liveTools` order. Server counts and watchers are told of each tool as a build would
   * (except those whose tables the snapshot carries, which the caller restores); the vocabulary
   * and name tables are taken as they are, so no text is read.
   */
  restore(saved: SavedTools, tools: readonly ToolDefinition[]): void {
    this.store.restore(saved.store);
    this.nameMasks.restore(saved.nameMasks);
    this.lookup.restore(saved.names, this.store.hashSeed);
    const nextId = this.store.nextId;
    while (this.tools.length < nextId) this.tools.push(undefined);
    const told = this.watchers.filter((watcher) => watcher.restoresFromSnapshot !== true);
    for (let index = 0; index < tools.length; index += 1) {
      const id = saved.ids[index] as number;
      const tool = tools[index] as ToolDefinition;
      this.tools[id] = tool;
      for (const watcher of told) watcher.added?.(id, tool);
      this.countServer(tool.server, 1);
    }
    this.sortedNames = undefined;
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
    return this.encoder.encode(tool, this.compounds);
  }

  private register(tool: ToolDefinition, id: number): void {
    this.tools[id] = tool;
    for (const watcher of this.watchers) watcher.added?.(id, tool);
    const cut = this.encoder.nameCut;
    if (cut >= 0) this.nameMasks.set(id, tool.name, cut);
    else this.nameMasks.set(id, tool.name);
    this.lookup.add(id, tool.name, this.encoder.namePhraseHash(), cut);
    this.sortedNames = undefined;
    this.countServer(tool.server, 1);
  }

  /** Removes a tool by name; returns false when it was not indexed. */
  remove(name: string): boolean {
    const id = this.lookup.idOf(name);
    if (id < 0) return false;
    const tool = this.tools[id] as ToolDefinition;
    this.store.remove(id, this.encode(tool));
    this.nameMasks.clear(id);
    for (const watcher of this.watchers) watcher.removed(id, tool);
    this.countServer(tool.server, -1);
    this.tools[id] = undefined;
    this.lookup.delete(id);
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

/** Reads and checks the indexed tools' sections of a snapshot for `toolCount` tools. */
export function readTools(reader: SnapshotReader, toolCount: number): SavedTools {
  const store = readStore(reader);
  const { nextId, liveCount } = store.counts;
  const ids = reader.i32("toolIds");
  const nameMasks = reader.i32("nameMasks");
  if (ids.length !== toolCount || liveCount !== toolCount) {
    throw new SnapshotProblem(`it holds ${ids.length} tools, not ${toolCount}`);
  }
  if (nameMasks.length !== nextId * 4) throw new SnapshotProblem("its name masks are mis-sized");
  const names = readNameLookup(reader, nextId);
  if (names.byName.count !== toolCount) {
    throw new SnapshotProblem(`its name table holds ${names.byName.count} tools, not ${toolCount}`);
  }
  let previous = -1;
  for (const id of ids) {
    if (id <= previous || id >= nextId || store.alive[id] !== 1) {
      throw new SnapshotProblem("its tool ids are out of order or not live");
    }
    previous = id;
  }
  return { store, nameMasks, ids, names };
}
