/**
 * Feeds executed calls to usage learning: a search meta call notes the tools its queries return
 * (the engine's top 10, whether or not the model was shown all of them); a call that ran a catalog
 * tool, directly or through the call meta tool, is credited to the session's recent searches.
 * Only the queries and tool names are read, never other arguments or results. The queries are read
 * by disclosure's own parser, so learning sees exactly the queries the search ran.
 */
import type { ToolDefinition } from "./catalog/index.js";
import { type ExecuteInput, type ExecuteOutcome, readSearchArguments } from "./disclosure/index.js";
import type { UsageLearning } from "./learning/index.js";
import type { SearchResult } from "./search/index.js";

/** What the observer reads besides the call. */
export interface UseObserverParts {
  /** The search meta tool's name. */
  searchName: string;
  /** Lexical search over visible tools. */
  search: (query: string, options: { limit: number }) => SearchResult;
  get: (name: string) => ToolDefinition | undefined;
}

const NOTED_HITS = 10;

/** Returns the function the facade calls after every `execute`. */
export function createUseObserver(
  learning: UsageLearning,
  parts: UseObserverParts,
): (input: ExecuteInput, outcome: ExecuteOutcome) => void {
  return (input, outcome) => {
    const session = input.session ?? "";
    if (input.name === parts.searchName) {
      const args = input.arguments;
      if (args === null || typeof args !== "object" || Array.isArray(args)) return;
      const { queries } = readSearchArguments(args as Record<string, unknown>, {
        defaultLimit: NOTED_HITS,
        maxLimit: NOTED_HITS,
      });
      for (const query of queries) {
        const names = parts.search(query, { limit: NOTED_HITS }).hits.map((hit) => hit.name);
        learning.recorder.searched(session, query, names);
      }
      return;
    }
    if (!outcome.ran || outcome.isError === true) return;
    const tool = parts.get(outcome.tool);
    if (tool) learning.recorder.called(session, tool);
  };
}
