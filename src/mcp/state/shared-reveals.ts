/**
 * `createSharedReveals`: the reveal store seam (`disclosure.store`, synchronous) over a
 * `SessionStore` (asynchronous). Each replica keeps a local copy of its sessions' reveals; a
 * reveal is written through to the store, and a request reads the store's reveals into the local
 * copy first (`hydrate`), so a tool revealed on one replica is listed and callable on every one.
 */
import { createMemoryRevealStore, type RevealStore } from "../../disclosure/index.js";
import type { SessionStore } from "./session-store.js";
import { createWriteChains } from "./write-chains.js";

/** A reveal store to pass as `disclosure.store`, plus the two moments it meets the store. */
export interface SharedReveals {
  revealStore: RevealStore;
  /** Reads the session's stored reveals into the local copy (before serving a request). */
  hydrate(session: string): Promise<void>;
  /** Resolves when the session's reveals so far are in the store (before answering a call);
   * rejects when the store could not take them. */
  flush(session: string): Promise<void>;
}

/** Creates the shared reveal store over `store`. `clear` (a session ending on this replica)
 * forgets only the local copy: the session may go on elsewhere; `store.deleteSession` ends it. */
export function createSharedReveals(store: SessionStore): SharedReveals {
  const local = createMemoryRevealStore();
  const writes = createWriteChains();
  const revealStore: RevealStore = {
    revealed: (session) => local.revealed(session),
    version: (session) => local.version(session),
    reveal(session, names) {
      const added = local.reveal(session, names);
      if (added.length > 0) writes.add(session, () => store.addReveals(session, added));
      return added;
    },
    clear: (session) => local.clear(session),
    export: () => local.export(),
    import: (snapshot) => local.import(snapshot),
  };
  return {
    revealStore,
    hydrate: async (session) => {
      const names = await store.revealed(session);
      if (names.length > 0) local.reveal(session, names);
    },
    flush: writes.flush,
  };
}
