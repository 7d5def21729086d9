/**
 * `createSharedTokenStore`: upstream OAuth logins kept in the replicas' `SessionStore` instead of
 * a file, so every replica (and `toolsift auth` with the same config) uses one login. Each write
 * is a compare-and-set (two replicas never overwrite each other's refresh), every change is
 * announced on the store's bus (each replica drops what it read), and `lock` keeps two replicas
 * from refreshing one login at once. The texts are secrets: nothing here logs them, and the bus
 * message names no token.
 */
import { loginKey, type StoredLogin, type TokenStore } from "../auth/token-store.js";
import type { SessionStore } from "./session-store.js";

/** The bus message that says a login changed. */
const LOGIN_CHANGED = "login";
/** A refresh is one round trip to the authorization server; a holder that dies frees the lock
 * after this, and a waiter gives up a little later. */
const LOCK_TTL_MS = 15_000;
const LOCK_POLL_MS = 50;
/** Compare-and-set attempts before a write gives up (each loses only to another write). */
const MAX_SWAPS = 50;

function parse(text: string | undefined): StoredLogin | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as StoredLogin;
  } catch {
    // the message names the key only: the text holds secrets
    return undefined;
  }
}

/** A `TokenStore` over `store` (its `logins`, `swapLogin`, `tryLock` and bus). */
export function createSharedTokenStore(store: SessionStore): TokenStore {
  const changed = () => store.publish({ target: "*", kind: LOGIN_CHANGED });

  /** Applies `change` to the current text until no other writer came first. */
  const swap = async (key: string, change: (text: string | undefined) => string | undefined) => {
    for (let attempt = 0; attempt < MAX_SWAPS; attempt += 1) {
      const current = await store.login(key);
      const next = change(current);
      if (next === current) return false;
      if (await store.swapLogin(key, current, next)) {
        await changed();
        return true;
      }
    }
    throw new Error(
      `The login of ${key.split(" ")[0]} kept changing while it was written (${MAX_SWAPS} attempts); try again.`,
    );
  };

  return {
    async get(server, url) {
      return parse(await store.login(loginKey(server, url)));
    },
    async update(server, url, change) {
      await swap(loginKey(server, url), (text) =>
        JSON.stringify(change(parse(text) ?? { server, url })),
      );
    },
    remove(server, url) {
      return swap(loginKey(server, url), () => undefined);
    },
    async list() {
      const texts = Object.values(await store.logins());
      return texts.map(parse).filter((login): login is StoredLogin => login !== undefined);
    },
    onChange(listener) {
      return store.subscribe((message) => {
        if (message.kind === LOGIN_CHANGED) listener();
      });
    },
    async lock(server, url) {
      const name = `login:${loginKey(server, url)}`;
      const deadline = Date.now() + LOCK_TTL_MS + 5_000;
      while (Date.now() < deadline) {
        const release = await store.tryLock(name, LOCK_TTL_MS);
        if (release) return release;
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
      throw new Error(
        `Another replica held the refresh lock of ${server} for over ${LOCK_TTL_MS / 1000} s; try again.`,
      );
    },
  };
}
