/**
 * `createSharedSpills`: the spill store seam (`budget.spill`, synchronous) over a `SessionStore`
 * (asynchronous). A result cut on one replica is kept here and written through to the store; a
 * `tool_result_read` that reaches another replica finds the id missing here, so the request's
 * spill ids are read from the store into a local copy first (`hydrate`) and paged from there.
 */
import {
  createSpillStore,
  type SpillStore,
  type SpillStoreOptions,
  spillText,
} from "../../budget/index.js";
import type { SessionStore } from "./session-store.js";
import { createWriteChains } from "./write-chains.js";

/** A spill store to pass as `budget.spill`, plus the two moments it meets the store. */
export interface SharedSpills {
  spillStore: SpillStore;
  /** Reads the spill ids a request names (`spill_…` strings in its tool arguments) from the
   * store into the local copy, when they are not here already. */
  hydrate(session: string, body: unknown): Promise<void>;
  /** Resolves when the session's spills so far are in the store (before answering a call);
   * rejects when the store could not take them. */
  flush(session: string): Promise<void>;
}

const SPILL_ID = /^spill_[0-9a-f]{32}$/;

/** The spill ids in a JSON-RPC body's tool arguments, direct or one level down (the call meta
 * tool's `arguments`). */
export function spillIdsOf(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids = new Set<string>();
  const scan = (value: unknown, depth: number) => {
    if (typeof value === "string" && SPILL_ID.test(value)) ids.add(value);
    else if (depth < 3 && value !== null && typeof value === "object") {
      for (const item of Object.values(value)) scan(item, depth + 1);
    }
  };
  for (const message of messages) {
    const params = (message as { method?: unknown; params?: { arguments?: unknown } } | null)
      ?.params;
    if ((message as { method?: unknown })?.method === "tools/call") scan(params?.arguments, 0);
  }
  return [...ids];
}

/** Creates the shared spill store over `store`; `options` as `createSpillStore`'s, for both the
 * results cut here and the copies read from the store. */
export function createSharedSpills(
  store: SessionStore,
  options: SpillStoreOptions = {},
): SharedSpills {
  const local = createSpillStore(options);
  // results stored by other replicas: a copy under a local id, found by the original one
  const copies = createSpillStore(options);
  const aliases = new Map<string, string>();
  const writes = createWriteChains();
  const copyOf = (id: string) => {
    const alias = aliases.get(id);
    if (alias !== undefined && !copies.has(alias)) aliases.delete(id);
    return aliases.get(id);
  };
  const spillStore: SpillStore = {
    put(value, putOptions = {}) {
      const id = local.put(value, putOptions);
      if (id !== undefined) {
        const session = putOptions.session ?? "";
        const text = spillText(value);
        writes.add(session, () => store.putSpill(session, id, text));
      }
      return id;
    },
    read(id, readOptions = {}) {
      const page = local.read(id, readOptions);
      if (page) return page;
      const alias = copyOf(id);
      const copied = alias === undefined ? undefined : copies.read(alias, readOptions);
      return copied ? { ...copied, id } : undefined;
    },
    has: (id) => local.has(id) || copyOf(id) !== undefined,
    delete: (id) => {
      const alias = copyOf(id);
      aliases.delete(id);
      return local.delete(id) || (alias !== undefined && copies.delete(alias));
    },
    clear(session) {
      local.clear(session);
      copies.clear(session);
    },
    get size() {
      return local.size + copies.size;
    },
    get bytes() {
      return local.bytes + copies.bytes;
    },
    pageTokens: local.pageTokens,
  };
  return {
    spillStore,
    hydrate: async (session, body) => {
      const missing = spillIdsOf(body).filter((id) => !spillStore.has(id));
      for (const id of missing) {
        const text = await store.readSpill(session, id);
        if (text === undefined) continue;
        const alias = copies.put(text, { session });
        if (alias !== undefined) aliases.set(id, alias);
      }
    },
    flush: writes.flush,
  };
}
