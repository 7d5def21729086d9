/**
 * Feeds usage learning from the facade's own steps: the search meta tool tells it, per query,
 * the tools that query returned (disclosure's `onSearched`, so nothing is searched twice); a call
 * that ran a catalog tool, directly or through the call meta tool, is credited to the session's
 * recent searches. Only the queries and tool names are read, never other arguments or results.
 */
import type { ToolDefinition } from "./catalog/index.js";
import type { ExecuteOutcome, SearchedEvent } from "./disclosure/index.js";
import type { UsageLearning } from "./learning/index.js";

/** Returns the two observers the facade wires in: `searched` for disclosure's `onSearched`,
 * `called` for every `execute` outcome. */
export function createUseObserver(
  learning: UsageLearning,
  get: (name: string) => ToolDefinition | undefined,
): {
  searched: (event: SearchedEvent) => void;
  called: (session: string, outcome: ExecuteOutcome) => void;
} {
  const scope = learning.sessionScope;
  const key = (session: string) => (scope === undefined ? session : `${scope}\u0000${session}`);
  return {
    searched: (event) => learning.recorder.searched(key(event.session), event.query, event.tools),
    called: (session, outcome) => {
      if (!outcome.ran || outcome.isError === true || outcome.route === "meta") return;
      const tool = get(outcome.tool);
      if (tool) learning.recorder.called(key(session), tool);
    },
  };
}
