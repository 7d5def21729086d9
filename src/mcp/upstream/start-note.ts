/**
 * What a search adds about the servers it could not search, and what a call of an unknown tool
 * adds about the servers whose tools cannot be called yet: those still starting (their tools join
 * when they are up), those whose start failed, with why, and those waiting for a login, with the
 * command to run, so a model (and the user reading along) is not told a capability is missing
 * when its server is not up.
 */
import type { UpstreamState } from "./upstream-state.js";

/** The part of the upstreams the note reads. */
export interface StartNoteSource {
  notReady(): string[];
  status(): { server: string; state: UpstreamState; tools: number; error?: string }[];
}

// a start error can quote a whole stderr: the note keeps the gist
const ERROR_CHARS = 300;

/** States of a server that is not up and has no tools to search. */
const NOT_UP: ReadonlySet<UpstreamState> = new Set(["down", "needs_login"]);

/** The words of the note for a search, or for a call whose tool was not found. */
const WORDS = {
  search: { pending: "Not searched yet, still starting", again: "search", verb: "searched" },
  call: { pending: "Still starting", again: "call", verb: "called" },
} as const;

/** The note, or undefined when every server has either started or has tools in the catalog. */
export function startNote(
  upstreams: StartNoteSource,
  during: keyof typeof WORDS = "search",
): string | undefined {
  const words = WORDS[during];
  const pending = upstreams.notReady();
  const notUp = upstreams
    .status()
    .filter((status) => NOT_UP.has(status.state) && status.tools === 0)
    .filter((status) => !pending.includes(status.server));
  const failed = notUp.filter((status) => status.state === "down");
  const lines: string[] = [];
  if (pending.length > 0) {
    const list = pending.map((server) => `"${server}"`).join(", ");
    lines.push(
      `${words.pending}: ${list}. Their tools join when they are up; ${words.again} again in a moment.`,
    );
  }
  if (failed.length > 0) {
    const list = failed.map((status) => {
      const why = (status.error ?? status.state).replace(/\s+/g, " ").trim();
      const cut = why.length > ERROR_CHARS ? `${why.slice(0, ERROR_CHARS)}…` : why;
      return `"${status.server}" (${cut})`;
    });
    lines.push(
      `Could not start: ${list.join("; ")}. Their tools cannot be ${words.verb} until they start; the gateway's log has the details.`,
    );
  }
  // a login status names the command to run: it is kept whole
  for (const status of notUp.filter((entry) => entry.state === "needs_login")) {
    const why = status.error ?? `Server "${status.server}" needs a login.`;
    lines.push(
      `Not ${words.verb}: ${why} Its tools join once the login is stored; no restart is needed.`,
    );
  }
  return lines.length > 0 ? lines.join("\n") : undefined;
}
