/** The live catalog: a validated, name-unique set of tools with change events and a fingerprint. */
import { InvalidToolError, ToolsiftError } from "../errors.js";
import { combineHashes, compareNames, fingerprintTool } from "./fingerprint-tools.js";
import { describeRenames, qualifyDuplicateNames, upstreamNameOf } from "./from-mcp-tools-list.js";
import { nameSkeleton } from "./name-skeleton.js";
import type { Catalog, CatalogChange, ToolDefinition } from "./types.js";
import { isPlainObject, type NameRule, validateEntries, validateTools } from "./validate-tools.js";

/** Options of `createCatalog`. */
export interface CatalogOptions {
  /** Name rule applied to every tool added; default `strict`. */
  nameRule?: NameRule;
  /**
   * Called when a change listener throws. The change is already applied and every other listener
   * still runs. Without this option the errors are collected and rethrown once all listeners have
   * run, as a ToolsiftError (`internal`) whose `cause` is the error (or an AggregateError).
   */
  onListenerError?: (error: unknown, change: CatalogChange) => void;
  /**
   * `qualify` (default): when tools of different servers share a name, each of them is called
   * `server/name` (within one `add` batch every one of them, so load order does not matter; a
   * later batch's tool clashing with a stored one of another server is the one renamed), and one
   * warning per batch names the collisions. A host tool (no server) keeps its bare name and the
   * server tools that share it are qualified. `error`: such a clash is `duplicate_tool`.
   */
  duplicates?: "qualify" | "error";
  /** Receives the warning naming qualified names; default `console.warn`. */
  onWarning?: (message: string) => void;
}

type Listener = (change: CatalogChange) => void;

/** Runs every listener on every change; one that throws does not stop the others. Without
 * `onListenerError` the errors are rethrown together once all have run. */
function deliverChanges(
  listeners: readonly { listener: Listener }[],
  changes: readonly CatalogChange[],
  onListenerError: CatalogOptions["onListenerError"],
): void {
  const errors: unknown[] = [];
  for (const change of changes) {
    for (const { listener } of listeners) {
      try {
        listener(change);
      } catch (error) {
        if (onListenerError) onListenerError(error, change);
        else errors.push(error);
      }
    }
  }
  if (errors.length > 0) {
    const cause = errors.length === 1 ? errors[0] : new AggregateError(errors);
    throw new ToolsiftError(
      "internal",
      `The catalog change was applied, but ${errors.length} change listener call(s) threw: ${String(
        (errors[0] as Error)?.message ?? errors[0],
      )}. Fix the listener, or pass onListenerError to createCatalog to handle listener errors.`,
      { cause },
    );
  }
}

/** The catalog's change listeners. Each subscription is its own entry, so subscribing one function
 * twice needs two unsubscribes. */
function createListeners(onListenerError: CatalogOptions["onListenerError"]) {
  let entries: readonly { listener: Listener }[] = [];
  return {
    subscribe(listener: Listener): () => void {
      const entry = { listener };
      entries = [...entries, entry];
      return () => {
        entries = entries.filter((other) => other !== entry);
      };
    },
    deliver(changes: readonly CatalogChange[]): void {
      // a snapshot, so a listener that unsubscribes (or subscribes) mid-delivery changes nothing now
      deliverChanges(entries, changes, onListenerError);
    },
  };
}

/** Names shared by tools of different servers become server/name, within the batch and against
 * the stored tools, with one warning per batch (unless `duplicates: "error"`). */
function qualifyServerClashes(
  batch: readonly unknown[],
  byName: ReadonlyMap<string, ToolDefinition>,
  options: CatalogOptions,
): readonly unknown[] {
  if (options.duplicates === "error") return batch;
  const { entries, renamed } = qualifyDuplicateNames(batch);
  const result = entries.map((entry) => {
    if (!isPlainObject(entry) || typeof entry.name !== "string") return entry;
    const stored = byName.get(entry.name);
    // a stored tool of another server, or the host's own (no server), keeps the bare name
    if (typeof entry.server !== "string" || stored === undefined) return entry;
    if (stored.server === entry.server) return entry;
    const to = `${entry.server}/${entry.name}`;
    renamed.push({ from: entry.name, to, server: entry.server });
    return { ...entry, name: to, upstreamName: upstreamNameOf(entry) };
  });
  if (renamed.length > 0) (options.onWarning ?? console.warn)(describeRenames(renamed));
  return result;
}

/**
 * Creates a catalog, optionally filled with `tools` (validated; throws InvalidToolError listing
 * every problem). Stored tools are shallow copies with a frozen top level; their schemas are
 * shared, not copied, so treat schemas as immutable once added.
 *
 * @example
 * const catalog = createCatalog([{ name: "read_file", description: "Read a file", inputSchema: { type: "object" } }]);
 * catalog.onChange((change) => console.log(change.type, change.tool.name));
 */
export function createCatalog(
  tools: readonly ToolDefinition[] = [],
  options: CatalogOptions = {},
): Catalog {
  const nameRule = options.nameRule ?? "strict";
  const byName = new Map<string, ToolDefinition>();
  // look-alike names are refused: the name each skeleton belongs to
  const bySkeleton = new Map<string, string>();
  const store = (tool: ToolDefinition) => {
    byName.set(tool.name, tool);
    bySkeleton.set(nameSkeleton(tool.name), tool.name);
  };
  const listeners = createListeners(options.onListenerError);
  let sorted: readonly ToolDefinition[] | undefined;
  let fingerprint: string | undefined;

  const validateOne = (tool: ToolDefinition): ToolDefinition => {
    const { valid, issues } = validateTools([tool], { nameRule, existingSkeletons: bySkeleton });
    if (issues.length > 0 || valid[0] === undefined) throw new InvalidToolError(issues);
    return valid[0];
  };

  const emit = (changes: readonly CatalogChange[]) => {
    sorted = undefined;
    fingerprint = undefined;
    listeners.deliver(changes);
  };

  const catalog: Catalog = {
    add(input) {
      const batch = qualifyServerClashes(Array.isArray(input) ? input : [input], byName, options);
      // the catalog drops schema warnings, so their keyword walk is skipped
      const { valid, issues } = validateEntries(
        batch.map((value) => ({ value })),
        { nameRule, existing: byName, existingSkeletons: bySkeleton },
        { schemaWarnings: false },
      );
      if (issues.length > 0) throw new InvalidToolError(issues);
      for (const tool of valid) store(tool);
      emit(valid.map((tool) => ({ type: "add", tool })));
    },
    remove(name) {
      const tool = byName.get(name);
      if (tool === undefined) return false;
      byName.delete(name);
      bySkeleton.delete(nameSkeleton(name));
      emit([{ type: "remove", tool }]);
      return true;
    },
    replace(input) {
      const tool = validateOne(input);
      const previous = byName.get(tool.name);
      store(tool);
      emit([previous ? { type: "replace", tool, previous } : { type: "add", tool }]);
    },
    get(name) {
      return byName.get(name);
    },
    has(name) {
      return byName.has(name);
    },
    list() {
      sorted ??= Object.freeze([...byName.values()].sort((a, b) => compareNames(a.name, b.name)));
      return sorted;
    },
    get size() {
      return byName.size;
    },
    fingerprint() {
      // per-tool hashes are cached on the frozen tool objects, so after a change only the
      // changed tools are re-serialised
      fingerprint ??= combineHashes(catalog.list().map(fingerprintTool));
      return fingerprint;
    },
    onChange: listeners.subscribe,
  };
  if (tools.length > 0) catalog.add(tools);
  return catalog;
}
