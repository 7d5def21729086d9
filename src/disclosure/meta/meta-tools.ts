import type { ToolDefinition } from "../../catalog/index.js";
import type { DisclosureStrategy, MetaToolNames } from "../types.js";

/** Default names of the meta tools. */
export const DEFAULT_META_TOOL_NAMES: MetaToolNames = {
  search: "tool_search",
  describe: "tool_describe",
  call: "tool_call",
};

/** Most queries one search call may carry. */
export const MAX_QUERIES = 5;

/** What the meta tool definitions depend on; equal inputs give identical definitions. */
export interface MetaToolInput {
  names: MetaToolNames;
  strategy: DisclosureStrategy;
  /** Number of deferrable tools (session-independent, so the description stays cache-stable). */
  searchable: number;
  defaultLimit: number;
  maxLimit: number;
  listing: string;
}

function searchDescription(input: MetaToolInput): string {
  const { names } = input;
  const after =
    input.strategy === "reveal"
      ? "Found tools become callable directly from your next step."
      : `Run a found tool with ${names.call} {name, arguments}; use ${names.describe} only when the signature is not enough.`;
  const parts = [
    `Find tools that are not loaded yet (${input.searchable} searchable). Pass one or more short keyword queries; each returns up to ${input.defaultLimit} tools as signatures like name(required*: type, optional?: type).`,
    after,
    "Search before concluding that a capability is unavailable.",
  ];
  const text = parts.join(" ");
  return input.listing ? `${text}\n\n${input.listing}` : text;
}

/** Builds the meta tool definitions (without handlers: `execute` runs them). */
export function buildMetaTools(input: MetaToolInput): ToolDefinition[] {
  const { names } = input;
  const search: ToolDefinition = {
    name: names.search,
    description: searchDescription(input),
    inputSchema: {
      type: "object",
      properties: {
        queries: {
          type: "array",
          items: { type: "string" },
          minItems: 1,
          maxItems: MAX_QUERIES,
          description: 'Keyword queries, e.g. ["create github issue", "list pull requests"].',
        },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: input.maxLimit,
          description: `Tools per query (default ${input.defaultLimit}).`,
        },
        include_weak: { type: "boolean", description: "Also reveal weak matches." },
      },
      required: ["queries"],
    },
  };
  if (input.strategy === "reveal") return [search];
  const describe: ToolDefinition = {
    name: names.describe,
    description: `Show the full input schema of tools found with ${names.search}.`,
    inputSchema: {
      type: "object",
      properties: {
        names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 10 },
      },
      required: ["names"],
    },
  };
  const call: ToolDefinition = {
    name: names.call,
    description: `Run a tool found with ${names.search}. Loaded tools must be called directly, not through ${names.call}.`,
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string", description: "Exact tool name." },
        arguments: { type: "object", description: "The tool's arguments." },
      },
      required: ["name"],
    },
  };
  return [search, describe, call];
}

/** The system note for an active plan. */
export function systemNote(
  names: MetaToolNames,
  strategy: DisclosureStrategy,
  nativeSearch: boolean,
): string {
  if (nativeSearch) {
    return "Some tools are deferred: use tool search to load one before calling it, and search before concluding that a capability is unavailable.";
  }
  if (strategy === "reveal") {
    return `Some tools are not loaded. Use ${names.search} to find them by keyword; found tools are callable directly from your next step. Search before concluding that a capability is unavailable.`;
  }
  return `Some tools are not loaded. Use ${names.search} to find them and ${names.call} {name, arguments} to run them (${names.describe} shows a full schema). Call loaded tools directly. Search before concluding that a capability is unavailable.`;
}
