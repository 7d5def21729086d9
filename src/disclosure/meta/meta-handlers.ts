import type { ToolDefinition, ToolResult } from "../../catalog/index.js";
import { NameIndex, suggestNames, wellFormed } from "../../internal/index.js";
import { capText } from "../../text/index.js";
import { errorResult } from "../call/run-handler.js";
import { type PlanBasis, visibleTool } from "../plan/plan-basis.js";
import type { ResolvedSettings } from "../plan/resolved-settings.js";
import type { CountTokens, SearchFunction } from "../types.js";
import { describeResponse, loadedNotes } from "./describe-response.js";
import type { DescribeArguments, SearchArguments } from "./meta-arguments.js";
import { searchResponse } from "./search-response.js";

/** What the meta tool handlers read. */
export interface MetaContext {
  basis: PlanBasis;
  settings: ResolvedSettings;
  search: SearchFunction;
  count: CountTokens;
  /** Token budget of one search response. */
  responseTokens: number;
  /** Withhold weak first hits too (see `DisclosureOptions.withholdWeak`). */
  withholdWeak: boolean;
  /** Token budget of one describe response. */
  describeTokens: number;
  /** Deferrable tools this session already has loaded (revealed), by shown name. */
  loaded: ReadonlySet<string>;
  /** Told what each query of this call's search returned (`DisclosureOptions.onSearched`). */
  onSearched?: (query: string, tools: readonly string[]) => void;
}

/** A meta tool's answer and the tools it found. */
export interface MetaAnswer {
  result: ToolResult;
  found: string[];
  repairs: string[];
}

// visible names per visible map (budgeted bases share their basis's map): copying 100k names
// for every unknown name made each such call cost a catalog-sized allocation
const nameLists = new WeakMap<PlanBasis["visible"], readonly string[]>();

/** The visible names of a basis, listed once per basis. */
export function visibleNames(basis: PlanBasis): readonly string[] {
  let names = nameLists.get(basis.visible);
  if (!names) {
    names = [...basis.visible.keys()];
    nameLists.set(basis.visible, names);
  }
  return names;
}

// a name index per visible map: "did you mean" scores a few candidates, not every visible name
// (ten unknown names at 100k tools took seconds as a scan)
const nameIndexes = new WeakMap<PlanBasis["visible"], NameIndex>();

/** The closest visible names (and names of `extra`) to an unknown one, best first. */
export function closestVisible(name: string, basis: PlanBasis, extra: Iterable<string> = []) {
  let index = nameIndexes.get(basis.visible);
  if (!index) {
    index = new NameIndex(visibleNames(basis));
    nameIndexes.set(basis.visible, index);
  }
  return suggestNames(name, both(index.candidates(name), extra));
}

function* both(first: Iterable<string>, second: Iterable<string>): Iterable<string> {
  yield* first;
  yield* second;
}

/** The message for a name that is unknown or hidden: identical in both cases, so policy-hidden
 * tools cannot be discovered by probing. */
export function unknownToolMessage(
  name: string,
  basis: PlanBasis,
  extra: Iterable<string> = [],
): string {
  const suggestions = closestVisible(name, basis, extra);
  const hint =
    suggestions.length > 0
      ? ` Did you mean: ${suggestions.join(", ")}?`
      : " Search for the tool you need.";
  return `Unknown tool "${capText(wellFormed(name), 128)}".${hint}`;
}

/** Runs the search meta tool on arguments read once by `readSearchArguments`. */
export function runSearch(args: SearchArguments, context: MetaContext): MetaAnswer {
  const { repairs, queries, limit } = args;
  if (queries.length === 0) {
    return {
      result: errorResult(
        'Search needs "queries": a list of one or more keyword queries, e.g. ["create github issue"].',
      ),
      found: [],
      repairs,
    };
  }
  const { basis } = context;
  const shownName = (name: string) => basis.renamed.get(name) ?? name;
  const { result, found } = searchResponse({
    queries,
    limit,
    search: context.search,
    candidate: (name) => {
      const shown = shownName(name);
      return basis.deferrableNames.has(shown) ? basis.visible.get(shown) : undefined;
    },
    loaded: (name) => {
      const shown = shownName(name);
      if (!basis.visible.has(shown)) return undefined;
      return !basis.deferrableNames.has(shown) || context.loaded.has(shown) ? shown : undefined;
    },
    closest: (name) => closestVisible(name, basis),
    hasLoaded: context.loaded.size > 0,
    strategy: context.settings.strategy,
    names: context.settings.names,
    maxTokens: context.responseTokens,
    count: context.count,
    includeWeak: args.includeWeak,
    withholdWeak: context.withholdWeak,
    ...(context.onSearched ? { onSearched: context.onSearched } : {}),
  });
  return { result, found, repairs };
}

/** Runs the describe meta tool: full schemas of visible tools; unknown and hidden names get the
 * same answer. */
export function runDescribe(args: DescribeArguments, context: MetaContext): MetaAnswer {
  const { names } = args;
  if (names.length === 0) {
    return {
      result: errorResult('Describe needs "names": a list of tool names.'),
      found: [],
      repairs: [],
    };
  }
  const described: ToolDefinition[] = [];
  const problems: string[] = [];
  for (const name of names.slice(0, 10)) {
    const tool: ToolDefinition | undefined = visibleTool(context.basis, name);
    if (tool) {
      if (!described.includes(tool)) described.push(tool);
    } else problems.push(unknownToolMessage(name, context.basis));
  }
  const { basis, loaded, settings } = context;
  const isLoaded = (name: string) => !basis.deferrableNames.has(name) || loaded.has(name);
  problems.push(...loadedNotes(described, isLoaded, settings.names.call));
  const text = describeResponse(described, problems, context.describeTokens, context.count);
  const result: ToolResult = { content: [{ type: "text", text }] };
  if (described.length === 0) result.isError = true;
  return { result, found: [], repairs: [] };
}
