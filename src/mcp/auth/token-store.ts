/**
 * Where upstream OAuth logins are kept: one JSON file under the user's config directory
 * (`$XDG_CONFIG_HOME/toolsift/tokens.json`, else `~/.config/toolsift/tokens.json`), mode 0600,
 * written whole to a temporary file and renamed so a reader never sees half of it. Its contents
 * are secrets: nothing here logs them, and errors name the file, never what is in it.
 */
import { unwatchFile, watchFile } from "node:fs";
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";

/** What is kept for one upstream (by server name and URL). */
export interface StoredLogin {
  server: string;
  url: string;
  /** The SDK's `OAuthTokens` as it saved them (with `issuer`). */
  tokens?: Record<string, unknown>;
  /** Milliseconds since the epoch when the access token expires, when the server said. */
  expiresAt?: number;
  /** When the tokens were last saved. */
  savedAt?: number;
  /** The registered client (dynamic registration or metadata document), as the SDK saved it. */
  client?: Record<string, unknown>;
  /** The SDK's discovery state (metadata of the resource and its authorization server). */
  discovery?: Record<string, unknown>;
  /** The redirect URL the client was registered with (a loopback address). */
  redirectUrl?: string;
  /** PKCE verifier of a login in progress. */
  codeVerifier?: string;
  /** A scope the server asked for that the stored tokens lack (step-up); the next login asks. */
  wantedScope?: string;
}

/** Reads and writes logins; `onChange` fires when another process (a login) writes them. */
export interface TokenStore {
  /** The file of a file store; a shared store has none. */
  readonly file?: string;
  get(server: string, url: string): Promise<StoredLogin | undefined>;
  /** Applies `change` to the entry (created when missing) and writes the file. */
  update(server: string, url: string, change: (login: StoredLogin) => StoredLogin): Promise<void>;
  remove(server: string, url: string): Promise<boolean>;
  list(): Promise<StoredLogin[]>;
  /** Calls `listener` when the logins change (here or elsewhere); returns the function that
   * stops it. */
  onChange(listener: () => void): () => void;
  /** Holds the login's refresh lock until the returned release is called, so two gateways that
   * share the store never refresh one login at once; a store without it is locked per process. */
  lock?(server: string, url: string): Promise<() => Promise<void>>;
}

/** The default store file: `$XDG_CONFIG_HOME/toolsift/tokens.json` or `~/.config/…`. */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(homedir(), ".config");
  return path.join(base, "toolsift", "tokens.json");
}

interface StoreFile {
  version: 1;
  logins: Record<string, StoredLogin>;
}

/** The key of one login in a store: server name and URL. */
export const loginKey = (server: string, url: string) => `${server} ${url}`;

/** A file-backed store; `pollMs` is how often a watcher checks the file (default 1,000). */
export function createTokenStore(
  file: string = defaultTokenFile(),
  options: { pollMs?: number } = {},
): TokenStore {
  // writes are chained so two updates in one process never interleave their read and rename
  let queue: Promise<unknown> = Promise.resolve();

  const read = async (): Promise<StoreFile> => {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, logins: {} };
      throw new Error(
        `Cannot read the token store ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}. Fix its permissions, or delete it and log in again.`,
      );
    }
    try {
      const parsed = JSON.parse(text) as Partial<StoreFile>;
      if (parsed.version === 1 && typeof parsed.logins === "object" && parsed.logins !== null)
        return parsed as StoreFile;
    } catch {
      // the message below says what to do; the text itself holds secrets and is not quoted
    }
    throw new Error(
      `The token store ${file} is not a toolsift token file. Delete it and run "toolsift auth login" again.`,
    );
  };

  const write = async (contents: StoreFile) => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
    // a umask cannot widen 0600, but an existing file's mode is not changed by writeFile
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  };

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    file,
    async get(server, url) {
      return (await read()).logins[loginKey(server, url)];
    },
    update(server, url, change) {
      return serial(async () => {
        const contents = await read();
        const key = loginKey(server, url);
        contents.logins[key] = change(contents.logins[key] ?? { server, url });
        await write(contents);
      });
    },
    remove(server, url) {
      return serial(async () => {
        const contents = await read();
        const key = loginKey(server, url);
        if (contents.logins[key] === undefined) return false;
        delete contents.logins[key];
        await write(contents);
        return true;
      });
    },
    async list() {
      return Object.values((await read()).logins);
    },
    onChange(listener) {
      // stat polling: fs.watch misses renames on some file systems, and a login is rare
      const watcher = (now: { mtimeMs: number }, before: { mtimeMs: number }) => {
        if (now.mtimeMs !== before.mtimeMs) listener();
      };
      watchFile(file, { interval: options.pollMs ?? 1_000, persistent: false }, watcher);
      return () => unwatchFile(file, watcher);
    },
  };
}
