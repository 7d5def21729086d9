/**
 * Pairs a session's searches with its next calls: a call of a tool that the session's recent
 * search returned (directly or through `tool_call`) is evidence that the search's words mean it.
 */

import type { ToolDefinition } from "../catalog/index.js";
import { LRUCache } from "../internal/index.js";
import type { UsageEvidence } from "./usage-evidence.js";

/** How long after a search a call still counts as its outcome (default 2 minutes). */
export const DEFAULT_WINDOW_MS = 120_000;
/** Sessions whose recent searches are remembered; the least recently active go first. */
const MAX_SESSIONS = 10_000;
/** Searches remembered per session: the one that found the tool and the rephrasings before it. */
const MAX_SEARCHES = 4;

interface RecentSearch {
  query: string;
  returned: ReadonlySet<string>;
  time: number;
  /** Set once a call was credited to this search or a later one. */
  resolved: boolean;
}

/** Options of a usage recorder. */
export interface RecorderOptions {
  /** Milliseconds after a search in which a call counts (default 120,000). */
  windowMs?: number;
  now?: () => number;
}

/**
 * Remembers each session's recent searches and, when a returned tool is called, records the pair
 * for the search that returned it and for the unresolved searches just before it: a model that
 * rephrased ("type into the login field", then "fill input") and then called `fill` says that
 * both wordings mean `fill`, and the first is the wording search did not know.
 */
export class UsageRecorder {
  private readonly recent = new LRUCache<string, RecentSearch[]>(MAX_SESSIONS);
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly evidence: UsageEvidence,
    options?: RecorderOptions,
  ) {
    this.windowMs = options?.windowMs ?? DEFAULT_WINDOW_MS;
    this.now = options?.now ?? Date.now;
  }

  /** Notes that `session` searched `query` and saw the tools named in `returned`. */
  searched(session: string, query: string, returned: readonly string[]): void {
    const list = this.recent.get(session) ?? [];
    list.push({ query, returned: new Set(returned), time: this.now(), resolved: false });
    if (list.length > MAX_SEARCHES) list.shift();
    this.recent.set(session, list);
  }

  /**
   * Notes that `session` called `tool`; records the pairs when a search of the window returned
   * the tool. Returns how many searches were credited.
   */
  called(session: string, tool: ToolDefinition): number {
    const list = this.recent.get(session);
    if (list === undefined) return 0;
    const since = this.now() - this.windowMs;
    let found = -1;
    for (let index = list.length - 1; index >= 0; index -= 1) {
      const search = list[index] as RecentSearch;
      if (search.time < since) break;
      if (search.returned.has(tool.name)) {
        found = index;
        break;
      }
    }
    if (found < 0) return 0;
    let credited = 0;
    for (let index = found; index >= 0; index -= 1) {
      const search = list[index] as RecentSearch;
      if (search.time < since || (index < found && search.resolved)) break;
      this.evidence.record(search.query, tool, session);
      credited += 1;
    }
    for (let index = 0; index <= found; index += 1) (list[index] as RecentSearch).resolved = true;
    return credited;
  }
}
